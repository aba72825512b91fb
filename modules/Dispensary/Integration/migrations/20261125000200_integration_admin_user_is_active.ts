import type { Knex } from 'knex';

/** Magento's `admin_user.is_active`: a deactivated admin cannot sign in, and its tokens are refused. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admin_user', (table) => {
    table.boolean('is_active').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admin_user', (table) => {
    table.dropColumn('is_active');
  });
}
