/**
 * The steps of Add Items that the two raw references (raw.ts on SQLite, rawPostgres.ts on
 * PostgreSQL) share, apart from how each talks to its database: which request items are new, the
 * rows to insert for them (or the 400 naming every unknown or disabled sku), and the insert in
 * chunks of 100 rows.
 */
import { randomUUID } from 'node:crypto';
import { inputError, MSG, skuKey, type ItemInput, type ItemRow } from './common.js';
import type { Errors } from './rawValidation.js';

/** A catalog product as Add Items reads it (`is_in_stock`: 1/0 on SQLite, a boolean on PostgreSQL). */
export interface ProductRow {
  sku: string;
  sku_key: string;
  status: number;
  is_in_stock: boolean | number;
}

export type NewItems = Map<string, { item: ItemInput; index: number }>;

/** The request's items whose sku is not in the recommendation yet, first occurrence only, by sku key, with their index in the request. */
export function newItems(input: readonly ItemInput[], existing: ReadonlySet<string>): NewItems {
  const first: NewItems = new Map();
  input.forEach((item, index) => {
    const key = skuKey(item.sku);
    if (!first.has(key) && !existing.has(key)) first.set(key, { item, index });
  });
  return first;
}

/** The rows to insert for the new items; throws the 400 naming every unknown or disabled sku. */
export function newItemRows(first: NewItems, products: ReadonlyMap<string, ProductRow>, recommendationId: string): ItemRow[] {
  const errors: Errors = [];
  const rows: ItemRow[] = [];
  for (const [key, { item, index }] of first) {
    const product = products.get(key);
    const where = { sku: item.sku, fieldName: `recommendation.items[${index}].sku` };
    if (!product) errors.push({ phrase: MSG.productNotFound, parameters: where });
    else if (product.status === 2) errors.push({ phrase: MSG.productDisabled, parameters: where });
    else {
      rows.push({
        item_id: randomUUID(),
        recommendation_id: recommendationId,
        sku: product.sku,
        sku_key: skuKey(product.sku),
        qty: item.qty,
        autoship_interval: item.autoship_interval ?? 'once',
        note: item.note ?? null,
        fulfillment_type: item.fulfillment_type ?? 'automatic',
        doctor_id: item.doctor_id ?? null,
        location_id: item.location_id ?? null,
      });
    }
  }
  if (errors.length) throw inputError(errors);
  return rows;
}

/** The rows in chunks of 100 (as the service: SQLite refuses a compound SELECT of more than 500 terms), each chunk's values in column order. */
export function insertChunks(rows: readonly ItemRow[], columns: readonly (keyof ItemRow)[]): { count: number; values: unknown[] }[] {
  const chunks: { count: number; values: unknown[] }[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const values: unknown[] = [];
    for (const row of chunk) for (const column of columns) values.push(row[column]);
    chunks.push({ count: chunk.length, values });
  }
  return chunks;
}
