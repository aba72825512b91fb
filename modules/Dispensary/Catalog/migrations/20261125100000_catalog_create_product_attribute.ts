import type { Knex } from 'knex';

/**
 * The product attributes' searchable columns (Magento's eav_attribute + catalog_eav_attribute, for
 * catalog_product only), so GET /V1/products/attributes searches them with the same SQL as every
 * other search. The rows come from Model/ProductAttributes.ts (Setup/ProductAttributeInstaller).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_product_attribute', (table) => {
    table.integer('attribute_id').primary();
    table.string('attribute_code', 255).notNullable().unique('catalog_product_attribute_code_unique');
    table.integer('entity_type_id').notNullable();
    table.string('frontend_input', 50).notNullable();
    table.string('backend_type', 8).notNullable();
    table.string('frontend_label', 255).nullable();
    for (const flag of [
      'is_required',
      'is_user_defined',
      'is_unique',
      'is_visible',
      'is_searchable',
      'is_filterable',
      'is_comparable',
      'is_visible_on_front',
      'used_in_product_listing',
      'used_for_sort_by',
      'is_used_in_grid',
      'is_visible_in_grid',
      'is_filterable_in_grid',
    ]) {
      table.boolean(flag).notNullable().defaultTo(false);
    }
    table.integer('is_global').notNullable();
    table.integer('position').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('catalog_product_attribute');
}
