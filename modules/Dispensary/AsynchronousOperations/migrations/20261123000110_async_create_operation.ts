import type { Knex } from 'knex';

/**
 * One element of a bulk (`magento_operation`): the replayable request in serialized_data, its
 * status (1 complete, 2 failed retriably, 3 failed, 4 open, 5 rejected) and outcome.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('magento_operation', (table) => {
    table.increments('id').primary();
    table.string('bulk_uuid', 36).notNullable().references('uuid').inTable('magento_bulk').onDelete('CASCADE');
    table.integer('operation_key').notNullable();
    table.string('topic_name', 255).notNullable();
    table.text('serialized_data', 'mediumtext').nullable();
    table.text('result_serialized_data', 'mediumtext').nullable();
    table.integer('status').notNullable();
    table.integer('error_code').nullable();
    table.text('result_message').nullable();
    /** How many deliveries took it (a completed one: exactly one of them committed). */
    table.integer('started_count').notNullable().defaultTo(0);
    table.unique(['bulk_uuid', 'operation_key'], { indexName: 'magento_operation_bulk_key_unique' });
    table.index(['bulk_uuid', 'status'], 'magento_operation_bulk_status_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('magento_operation');
}
