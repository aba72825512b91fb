import type { Knex } from 'knex';

/**
 * Nonces seen per consumer (Magento's `oauth_nonce`), kept for the nonce window and then purged.
 * The nonce is stored as its SHA-256: fixed length, and no collation can fold two nonces into one.
 * `timestamp` is the request's oauth_timestamp (Unix seconds).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_nonce', (table) => {
    table.integer('consumer_id').notNullable();
    table.string('nonce_hash', 64).notNullable();
    table.bigInteger('timestamp').notNullable();
    table.unique(['consumer_id', 'nonce_hash'], 'oauth_nonce_consumer_nonce_unique');
    table.index(['consumer_id', 'timestamp'], 'oauth_nonce_consumer_timestamp_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_nonce');
}
