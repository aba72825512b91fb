import type { Knex } from 'knex';
import { isMysql, keyColumn } from '../Setup/columns.js';

/**
 * Items. The database itself keeps one item per (recommendation, sku key): concurrent Add Items
 * requests can never store a sku twice. `entity_id` (auto-increment) orders items as first added;
 * `item_id` is the public UUID.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dispensary_recommendation_item', (table) => {
    table.increments('entity_id').primary();
    table.string('item_id', 36).notNullable().unique({ indexName: 'dispensary_rec_item_item_id_unique' });
    table
      .string('recommendation_id', 36)
      .notNullable()
      .references('recommendation_id')
      .inTable('dispensary_recommendation')
      .onDelete('CASCADE');
    table.string('sku', 64).notNullable();
    // skuKey() of a sku up to 64 characters: lower-casing may lengthen it (e.g. U+0130).
    keyColumn(knex, table, 'sku_key', 128);
    table.integer('qty').notNullable();
    table.string('autoship_interval', 8).notNullable().defaultTo('once');
    table.text('note').nullable();
    table.string('fulfillment_type', 16).notNullable().defaultTo('automatic');
    table.integer('doctor_id').nullable();
    table.integer('location_id').nullable();
    table.unique(['recommendation_id', 'sku_key'], { indexName: 'dispensary_rec_item_sku_unique' });
    if (isMysql(knex)) table.charset('utf8mb4');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dispensary_recommendation_item');
}
