import type { Knex } from 'knex';

/**
 * Products. `sku` is kept as spelled (trimmed); `sku_key` = skuKey(sku) is what every look-up
 * uses, unique, so that skus match case-insensitively after trimming on every database. On MySQL
 * the key gets a binary collation: the key is already folded, and the default accent- and
 * pad-insensitive collations would make distinct keys (`é` and `e`) collide.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = /mysql|mariadb/i.test(String(knex.client.config.client));
  await knex.schema.createTable('catalog_product', (table) => {
    table.increments('entity_id').primary();
    table.string('sku', 64).notNullable();
    const key = table.string('sku_key', 128).notNullable(); // lower-casing can lengthen a 64-character sku (e.g. U+0130)
    if (mysql) key.collate('utf8mb4_bin');
    key.unique({ indexName: 'catalog_product_sku_key_unique' });
    table.string('name', 255).notNullable();
    table.decimal('price', 20, 6).notNullable().defaultTo(0);
    table.integer('status').notNullable().defaultTo(1);
    table.boolean('is_in_stock').notNullable().defaultTo(true);
    table.string('created_at', 19).notNullable();
    table.string('updated_at', 19).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('catalog_product');
}
