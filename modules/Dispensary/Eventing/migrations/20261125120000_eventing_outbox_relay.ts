import type { Knex } from 'knex';

/**
 * Delivery through the message queue (the outbox relay, docs/webhooks-and-events.md):
 * `lease_token` says who holds `lease_until`: `p:<uuid>` a relay that published the row to the
 * queue (the message carries the token), `d:<uuid>` a consumer delivering it; `priority` (1 for a
 * subscription with `priority`) sends the row through `event.delivery.priority`, ahead of the others.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_outbox', (table) => {
    table.string('lease_token', 64).nullable();
    table.integer('priority').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_outbox', (table) => {
    table.dropColumn('lease_token');
    table.dropColumn('priority');
  });
}
