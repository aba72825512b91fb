import type { Knex } from 'knex';

/**
 * Issue 26: the envelope an event was recorded in, and subscriptions a receiver turned off.
 *
 * `event_outbox.format`: `standardwebhooks` (`{type, timestamp, data}`, application/json) or
 * `cloudevents` (CloudEvents 1.0 structured mode, application/cloudevents+json): the
 * subscription's `format` when the event was recorded, so the payload and its content type agree
 * whatever happens to the subscription later. Rows written before this migration hold the old
 * `{event_id, event, created_at, data}` payload and are sent as they are (`legacy`).
 *
 * `event_subscription_disabled`: one row per subscription (run-time or io_events.xml, by name)
 * whose destination answered `410 Gone`: no event is recorded for it, its pending events are
 * dead-lettered, `getEventSubscriptions` lists it `disabled`. Subscribing the name again enables it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_outbox', (table) => {
    table.string('format', 16).notNullable().defaultTo('legacy');
  });
  await knex.schema.createTable('event_subscription_disabled', (table) => {
    table.string('name', 255).primary();
    table.string('reason', 255).notNullable();
    table.bigInteger('disabled_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('event_subscription_disabled');
  await knex.schema.alterTable('event_outbox', (table) => {
    table.dropColumn('format');
  });
}
