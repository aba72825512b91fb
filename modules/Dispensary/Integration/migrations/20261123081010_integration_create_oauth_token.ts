import type { Knex } from 'knex';

/**
 * OAuth 1.0a access tokens (Magento's `oauth_token`). The token itself is the `integration_token`
 * row it points at (`token_id`): that row holds the token's SHA-256, its store binding, its
 * resources and its name, exactly as for an `integration:token:create` token. This table adds
 * what OAuth needs besides: the consumer and the token secret, encrypted like the consumer secret.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_token', (table) => {
    table.increments('entity_id').primary();
    table.integer('consumer_id').notNullable().index('oauth_token_consumer_id_index');
    table.integer('token_id').notNullable().unique('oauth_token_token_id_unique');
    table.string('type', 16).notNullable().defaultTo('access');
    table.text('secret').notNullable();
    table.string('created_at', 19).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_token');
}
