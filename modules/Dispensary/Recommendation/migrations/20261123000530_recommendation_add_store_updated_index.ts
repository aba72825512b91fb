import type { Knex } from 'knex';

/**
 * An integrator syncs with `recommendation/search` filtered by `updated_at` within its store: this
 * index serves that query (store, then time) without reading the whole table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dispensary_recommendation', (table) => {
    table.index(['store_id', 'updated_at'], 'dispensary_recommendation_store_updated_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dispensary_recommendation', (table) => {
    table.dropIndex(['store_id', 'updated_at'], 'dispensary_recommendation_store_updated_idx');
  });
}
