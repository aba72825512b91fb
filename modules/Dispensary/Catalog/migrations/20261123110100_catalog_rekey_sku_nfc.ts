import type { Knex } from 'knex';
import { rekeySkus } from '../Api/rekeySkus.js';
import { skuKey } from '../Api/skuKey.js';

/**
 * Skus became Unicode-normalised (NFC) and their key NFC-then-lower-case (see skuKey). Rows saved
 * before keep working: each product's sku is put in NFC and its key recomputed. Where two old
 * products now share a key (a composed and a decomposed spelling), the older one (lowest id)
 * takes it and the newer keeps its old key and spelling: nothing is deleted, the unique index
 * still holds, and look-ups find the older product.
 */
const TABLE = 'catalog_product';
const CHUNK = 500;

export async function up(knex: Knex): Promise<void> {
  const rows: { id: number; sku: string; oldKey: string; key: string }[] = [];
  for (let after = 0; ;) {
    const chunk = (await knex(TABLE)
      .select('entity_id', 'sku', 'sku_key')
      .where('entity_id', '>', after)
      .orderBy('entity_id')
      .limit(CHUNK)) as {
      entity_id: number | string;
      sku: string;
      sku_key: string;
    }[];
    if (chunk.length === 0) break;
    for (const row of chunk)
      rows.push({ id: Number(row.entity_id), sku: row.sku, oldKey: row.sku_key, key: skuKey(row.sku) });
    after = rows[rows.length - 1]!.id;
  }
  await rekeySkus(knex, TABLE, rows);
}

export async function down(): Promise<void> {
  // The new keys are valid under the old rule's look-ups of NFC input; nothing to undo.
}
