import type { Knex } from 'knex';

/**
 * Run-time event subscriptions (`POST /V1/eventing/eventSubscribe`, `events:subscribe`), one per
 * event name. `secret` is the Standard Webhooks signing secret, encrypted (Integration's Encryptor).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('event_subscription', (table) => {
    table.increments('subscription_id').primary();
    table.string('name', 255).notNullable().unique('event_subscription_name_unique');
    table.text('definition').notNullable();
    table.text('secret').notNullable();
    table.string('created_at', 19).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('event_subscription');
}
