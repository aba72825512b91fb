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

/** Gives each row its new key unless a row keeping its key, or an older re-keyed row, holds it already. */
export async function rekeySkus(knex: Knex, table: string, rows: readonly SkuKeyRow[]): Promise<void> {
  const held = new Set(rows.filter((r) => r.key === r.oldKey).map((r) => `${r.group ?? ''}\u0001${r.key}`));
  const changes = [];
  for (const row of rows) {
    if (row.key === row.oldKey) continue;
    const slot = `${row.group ?? ''}\u0001${row.key}`;
    if (held.has(slot)) continue;
    held.add(slot);
    changes.push(row);
  }
  // Park changed rows on a key no sku can produce (a control character) first, so the order of the
  // updates can never collide on the unique index.
  for (const change of changes) await knex(table).where({ entity_id: change.id }).update({ sku_key: `\u0001rekey:${change.id}` });
  for (const change of changes) await knex(table).where({ entity_id: change.id }).update({ sku_key: change.key, sku: change.sku.trim().normalize('NFC') });
}
