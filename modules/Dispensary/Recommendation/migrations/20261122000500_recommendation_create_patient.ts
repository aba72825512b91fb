import type { Knex } from 'knex';
import { isMysql, keyColumn } from '../Setup/columns.js';

/** Patients belong to one store; the email is unique within it (case-insensitively, via email_key). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dispensary_patient', (table) => {
    table.increments('patient_id').primary();
    table.integer('store_id').unsigned().notNullable();
    table.string('firstname', 255).notNullable();
    table.string('lastname', 255).notNullable();
    table.string('email', 255).notNullable();
    keyColumn(knex, table, 'email_key', 255);
    table.string('created_at', 19).notNullable();
    table.string('updated_at', 19).notNullable();
    table.unique(['store_id', 'email_key'], { indexName: 'dispensary_patient_store_email_unique' });
    if (isMysql(knex)) table.charset('utf8mb4');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dispensary_patient');
}
