import type { Knex } from 'knex';

/**
 * OAuth 1.0a consumers (Magento's `oauth_consumer`), one per integration. The consumer key is
 * stored only as its SHA-256 (the look-up key); the consumer secret, which the server needs to
 * check HMAC signatures, is stored encrypted (AES-256-GCM) under a key that is not in the
 * database (Model/Encryptor.ts), so a dump of the database alone cannot sign a request.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_consumer', (table) => {
    table.increments('consumer_id').primary();
    table.string('name', 255).notNullable();
    table.string('key_hash', 64).notNullable().unique('oauth_consumer_key_hash_unique');
    table.text('secret').notNullable();
    table.string('created_at', 19).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_consumer');
}
