import type { Knex } from 'knex';

/** The operation search (`GET /V1/bulk`) lists the caller's own bulks: find them by user (Magento's MAGENTO_BULK_USER_ID). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('magento_bulk', (table) => {
    table.index(['user_type', 'user_id'], 'magento_bulk_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('magento_bulk', (table) => {
    table.dropIndex(['user_type', 'user_id'], 'magento_bulk_user_index');
  });
}
