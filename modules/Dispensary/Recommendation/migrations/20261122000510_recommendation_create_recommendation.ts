import type { Knex } from 'knex';
import { isMysql } from '../Setup/columns.js';

/** Recommendations: UUID ids made by the application, so inserts need no dialect-specific `returning`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dispensary_recommendation', (table) => {
    table.string('recommendation_id', 36).primary();
    table
      .integer('patient_id')
      .unsigned()
      .notNullable()
      .references('patient_id')
      .inTable('dispensary_patient')
      .onDelete('CASCADE');
    table.integer('store_id').unsigned().notNullable().index('dispensary_recommendation_store_idx');
    table.string('format', 16).notNullable();
    table.string('status', 16).notNullable().defaultTo('pending');
    table.text('note').nullable();
    table.boolean('notify_email').notNullable().defaultTo(false);
    table.boolean('notify_sms').notNullable().defaultTo(false);
    table.string('created_at', 19).notNullable();
    table.string('updated_at', 19).notNullable();
    if (isMysql(knex)) table.charset('utf8mb4');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dispensary_recommendation');
}
