import type { Knex } from 'knex';
import { usernameKey } from '../Model/usernameKey.js';

const isMysql = (knex: Knex) => /mysql|mariadb/i.test(String(knex.client.config.client));

/**
 * Admin user names become case-insensitive on every database: `username_key` = usernameKey(username)
 * under a unique index replaces the unique index on `username` (which MySQL's default collation
 * compared case-insensitively and SQLite and PostgreSQL did not). Binary collation on MySQL: the
 * key is folded already. Two existing users whose names differ only in case stop the upgrade,
 * naming them, before anything changes.
 */
export async function up(knex: Knex): Promise<void> {
  const rows = (await knex('admin_user').select('user_id', 'username').orderBy('user_id')) as {
    user_id: number;
    username: string;
  }[];
  const byKey = new Map<string, string>();
  for (const row of rows) {
    const key = usernameKey(row.username);
    const other = byKey.get(key);
    if (other !== undefined) {
      throw new Error(
        `The admin users "${other}" and "${row.username}" differ only in case; rename or delete one in admin_user, then upgrade again`,
      );
    }
    byKey.set(key, row.username);
  }
  await knex.schema.alterTable('admin_user', (table) => {
    const column = table.string('username_key', 128).nullable();
    if (isMysql(knex)) column.collate('utf8mb4_bin');
  });
  for (const row of rows)
    await knex('admin_user')
      .where({ user_id: row.user_id })
      .update({ username_key: usernameKey(row.username) });
  await knex.schema.alterTable('admin_user', (table) => {
    table.dropUnique(['username'], 'admin_user_username_unique');
    const column = table.string('username_key', 128).notNullable();
    if (isMysql(knex)) column.collate('utf8mb4_bin');
    column.alter();
    table.unique(['username_key'], { indexName: 'admin_user_username_key_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admin_user', (table) => {
    table.dropUnique(['username_key'], 'admin_user_username_key_unique');
    table.dropColumn('username_key');
    table.unique(['username'], { indexName: 'admin_user_username_unique' });
  });
}
