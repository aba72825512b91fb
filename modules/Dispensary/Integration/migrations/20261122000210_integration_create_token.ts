import type { Knex } from 'knex';

/**
 * Access tokens, integration and admin alike. Only the SHA-256 of a token is stored.
 * `active_name` holds the name while an integration token is active and NULL otherwise, so the
 * database itself keeps names unique among active tokens (NULLs never clash).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('integration_token', (table) => {
    table.increments('token_id').primary();
    table.string('kind', 16).notNullable();
    table.string('name', 255).notNullable();
    table.string('active_name', 255).nullable().unique('integration_token_active_name_unique');
    table.string('token_hash', 64).notNullable().unique('integration_token_hash_unique');
    table.integer('store_id').nullable();
    table.text('resources').nullable();
    table.integer('admin_user_id').nullable();
    table.string('created_at', 19).notNullable();
    table.string('expires_at', 19).nullable();
    table.string('revoked_at', 19).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('integration_token');
}
