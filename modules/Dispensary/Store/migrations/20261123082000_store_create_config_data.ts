import type { Knex } from 'knex';

/**
 * Store configuration values (Magento's core_config_data): `scope` is `default` (scope_id 0) or
 * `stores` (scope_id a store id); a store's value wins over the default scope's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_config_data', (table) => {
    table.increments('config_id').primary();
    table.string('scope', 8).notNullable();
    table.integer('scope_id').notNullable();
    table.string('path', 255).notNullable();
    table.text('value').notNullable();
    table.unique(['scope', 'scope_id', 'path'], 'store_config_data_scope_path_unique');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('store_config_data');
}
