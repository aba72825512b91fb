/**
 * The steps of Add Items that the two raw references (raw.ts on SQLite, rawPostgres.ts on
 * PostgreSQL) share, apart from how each talks to its database: which request items are new, the
 * rows to insert for them (or the 400 naming every unknown or disabled sku), and the insert in
 * chunks of 100 rows. And Update Items' one step: which columns of which items change.
 */
import { randomUUID } from 'node:crypto';
import { inputError, MSG, skuKey, UPDATABLE, type ItemInput, type ItemOut, type ItemRow } from './common.js';
import type { Errors } from './rawValidation.js';

const ITEM_COLUMNS = [
  'item_id',
  'recommendation_id',
  'sku',
  'sku_key',
  'qty',
  'autoship_interval',
  'note',
  'fulfillment_type',
  'doctor_id',
  'location_id',
] as const;
/** The item columns in the order knex writes them in a multi-row insert (sorted), for the raw references' inserts. */
export const INSERT_COLUMNS = [...ITEM_COLUMNS].sort();

/** A catalog product as Add Items reads it (`is_in_stock`: 1/0 on SQLite, a boolean on PostgreSQL). */
export interface ProductRow {
  sku: string;
  sku_key: string;
  status: number | string;
  is_in_stock: boolean | number | string;
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
export function newItemRows(
  first: NewItems,
  products: ReadonlyMap<string, ProductRow>,
  recommendationId: string,
): ItemRow[] {
  const errors: Errors = [];
  const rows: ItemRow[] = [];
  for (const [key, { item, index }] of first) {
    const product = products.get(key);
    const where = { sku: item.sku, fieldName: `recommendation.items[${index}].sku` };
    if (!product) errors.push({ phrase: MSG.productNotFound, parameters: where });
    else if (Number(product.status) === 2) errors.push({ phrase: MSG.productDisabled, parameters: where });
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
export function insertChunks(
  rows: readonly ItemRow[],
  columns: readonly (keyof ItemRow)[],
): { count: number; values: unknown[] }[] {
  const chunks: { count: number; values: unknown[] }[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const values: unknown[] = [];
    for (const row of chunk) for (const column of columns) values.push(row[column]);
    chunks.push({ count: chunk.length, values });
  }
  return chunks;
}

/** An item's changed columns (in UPDATABLE's order) and their new values. */
export interface ItemUpdate {
  readonly itemId: string;
  readonly fields: string[];
  readonly values: unknown[];
}

/**
 * Update Items on the stored items (changed in place, by sku key; skus the recommendation does
 * not hold are ignored): the items as they are answered, and the updates to write.
 */
export function itemUpdates(
  stored: readonly { key: string; item: ItemOut }[],
  input: readonly ItemInput[],
): { items: ItemOut[]; updates: ItemUpdate[] } {
  const items = stored.map((s) => s.item);
  const byKey = new Map(stored.map((s) => [s.key, s.item]));
  const before = new Map(items.map((item) => [item.item_id, { ...item }]));
  for (const change of input) {
    const item = byKey.get(skuKey(change.sku)) as unknown as Record<string, unknown> | undefined;
    if (!item) continue;
    for (const [field, fallback] of UPDATABLE) {
      const value = change[field as keyof ItemInput];
      if (value !== undefined) item[field] = value ?? fallback;
    }
  }
  const updates: ItemUpdate[] = [];
  for (const item of items) {
    const old = before.get(item.item_id)!;
    const fields: string[] = [];
    const values: unknown[] = [];
    for (const [field] of UPDATABLE) {
      if (item[field] !== old[field]) {
        fields.push(field);
        values.push(item[field]);
      }
    }
    if (fields.length) updates.push({ itemId: item.item_id, fields, values });
  }
  return { items, updates };
}
