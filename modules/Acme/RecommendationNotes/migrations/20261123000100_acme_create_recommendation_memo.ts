import type { Knex } from 'knex';

/** The module's own table: a practitioner memo and a count of item changes per recommendation. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('acme_recommendation_memo', (table) => {
    table.string('recommendation_id', 36).primary();
    table.text('memo').nullable();
    table.integer('item_changes').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('acme_recommendation_memo');
}
