import type { Knex } from 'knex';

/** The one place where the dispensary's schema differs by database. */
export function isMysql(knex: Knex): boolean {
  return /mysql|mariadb/i.test(String(knex.client.config.client));
}

/**
 * A key column that compares byte for byte. Keys are folded by the application (skuKey, email
 * key); MySQL's default collations would fold them again, accent- and pad-insensitively, and make
 * distinct keys (`é` and `e`) collide. SQLite and PostgreSQL compare bytes already.
 */
export function keyColumn(
  knex: Knex,
  table: Knex.CreateTableBuilder,
  name: string,
  length: number,
): Knex.ColumnBuilder {
  const column = table.string(name, length).notNullable();
  if (isMysql(knex)) column.collate('utf8mb4_bin');
  return column;
}
