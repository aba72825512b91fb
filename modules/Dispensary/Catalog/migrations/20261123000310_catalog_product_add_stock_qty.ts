import type { Knex } from 'knex';

/**
 * The stock quantity of Magento's stock item (`cataloginventory_stock_item.qty`, one default
 * stock): decimal like Magento's, 0 for the products that existed before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('catalog_product', (table) => {
    table.decimal('qty', 12, 4).notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('catalog_product', (table) => {
    table.dropColumn('qty');
  });
}
