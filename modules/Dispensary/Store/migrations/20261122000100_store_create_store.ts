import type { Knex } from 'knex';

/** Stores (practices). Store id 0 is the virtual admin scope `all` and is never stored. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store', (table) => {
    table.increments('store_id').primary();
    table.string('code', 32).notNullable().unique('store_code_unique');
    table.string('name', 255).notNullable();
    table.integer('website_id').notNullable().defaultTo(1);
    table.integer('store_group_id').notNullable().defaultTo(1);
    table.boolean('is_active').notNullable().defaultTo(true);
    table.boolean('is_default').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('store');
}
