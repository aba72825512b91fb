import type { Knex } from 'knex';

/**
 * Failed admin logins per user name (Magento's `oauth_token_request_log`): `user_name` holds the
 * normalised key (usernameKey), of known and unknown names alike; one row per name and user
 * type. Binary collation on MySQL: the key is folded already.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = /mysql|mariadb/i.test(String(knex.client.config.client));
  await knex.schema.createTable('oauth_token_request_log', (table) => {
    table.increments('entity_id').primary();
    const name = table.string('user_name', 128).notNullable();
    if (mysql) name.collate('utf8mb4_bin');
    table.integer('user_type').notNullable();
    table.integer('failures_count').notNullable().defaultTo(0);
    table.string('lock_expires_at', 19).notNullable();
    table.unique(['user_name', 'user_type'], { indexName: 'oauth_token_request_log_user_unique' });
    table.index(['lock_expires_at'], 'oauth_token_request_log_lock_expires_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_token_request_log');
}
