import type { Knex } from 'knex';

/**
 * For migrations of tables that store a sku beside its key (`entity_id`, `sku`, `sku_key`), when
 * the key rule changes: the row's id, sku and keys, and `group` when the key is unique only
 * within a group (an item's recommendation).
 */
export interface SkuKeyRow {
  readonly id: number;
  readonly sku: string;
  readonly oldKey: string;
  readonly key: string;
  readonly group?: string;
}

/**
 * Gives each row its new key unless another row holds it: a row that keeps its key (or cannot
 * move, so keeps its old one), or an older re-keyed row. Repeats until no move collides.
 */
export async function rekeySkus(knex: Knex, table: string, rows: readonly SkuKeyRow[]): Promise<void> {
  const slot = (row: SkuKeyRow, key: string) => `${row.group ?? ''}\u0001${key}`;
  const changed = rows.filter((r) => r.key !== r.oldKey);
  const moving = new Set(changed);
  for (let collided = true; collided;) {
    collided = false;
    const held = new Set(rows.filter((r) => !moving.has(r)).map((r) => slot(r, r.oldKey)));
    const claimed = new Set<string>();
    for (const row of changed) {
      if (!moving.has(row)) continue;
      const target = slot(row, row.key);
      if (held.has(target) || claimed.has(target)) {
        moving.delete(row);
        collided = true;
      } else claimed.add(target);
    }
  }
  // Park moving rows on a key no sku can produce (a control character) first, so the order of the
  // updates can never collide on the unique index.
  for (const row of moving)
    await knex(table)
      .where({ entity_id: row.id })
      .update({ sku_key: `\u0001rekey:${row.id}` });
  for (const row of moving)
    await knex(table)
      .where({ entity_id: row.id })
      .update({ sku_key: row.key, sku: row.sku.trim().normalize('NFC') });
}
