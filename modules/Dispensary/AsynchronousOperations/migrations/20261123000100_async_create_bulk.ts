import type { Knex } from 'knex';

/** A bulk: one async request (`magento_bulk`). user_type/user_id name the caller who may read it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('magento_bulk', (table) => {
    table.increments('id').primary();
    table.string('uuid', 36).notNullable().unique('magento_bulk_uuid_unique');
    table.integer('user_type').notNullable();
    table.integer('user_id').nullable();
    table.string('description', 255).nullable();
    table.integer('operation_count').notNullable();
    table.string('start_time', 19).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('magento_bulk');
}
