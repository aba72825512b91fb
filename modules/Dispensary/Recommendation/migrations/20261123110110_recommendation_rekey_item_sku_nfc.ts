import type { Knex } from 'knex';
import { skuKey } from '../../Catalog/Api/skuKey.js';
import { rekeySkus } from '../../Catalog/Api/rekeySkus.js';

/**
 * Items follow the catalog's new sku rule (NFC, then lower case): each item's sku is put in NFC
 * and its key recomputed. Two items of one recommendation that now share a key keep the older
 * item on it; the newer keeps its old key (nothing is deleted).
 */
const TABLE = 'dispensary_recommendation_item';
const CHUNK = 500;

export async function up(knex: Knex): Promise<void> {
  const rows: { id: number; sku: string; oldKey: string; key: string; group: string }[] = [];
  for (let after = 0; ;) {
    const chunk = (await knex(TABLE)
      .select('entity_id', 'recommendation_id', 'sku', 'sku_key')
      .where('entity_id', '>', after)
      .orderBy('entity_id')
      .limit(CHUNK)) as { entity_id: number | string; recommendation_id: string; sku: string; sku_key: string }[];
    if (chunk.length === 0) break;
    for (const row of chunk) {
      rows.push({
        id: Number(row.entity_id),
        sku: row.sku,
        oldKey: row.sku_key,
        key: skuKey(row.sku),
        group: row.recommendation_id,
      });
    }
    after = rows[rows.length - 1]!.id;
  }
  await rekeySkus(knex, TABLE, rows);
}

export async function down(): Promise<void> {
  // The new keys serve the old look-ups of NFC input as well; nothing to undo.
}
