import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_user', (table) => {
    table.increments('user_id').primary();
    table.string('username', 64).notNullable().unique('admin_user_username_unique');
    table.string('password_hash', 255).notNullable();
    table.string('created_at', 19).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('admin_user');
}
