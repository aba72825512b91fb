import type { Knex } from 'knex';

/**
 * The transactional outbox: one row per event and subscription, written in the transaction of the
 * change that caused it, so a rolled-back request leaves none and a committed one cannot be lost.
 * The delivery consumer takes rows by lease (`lease_until`, ms since the epoch): a consumer that
 * dies mid-delivery leaves a lease that runs out, and the row is sent again with the same
 * `event_uuid` (the `webhook-id`). `entity_key` orders one entity's events: a row is taken only
 * when no earlier row of the same subscription and entity is still pending.
 * `status`: pending, delivered, dead (attempts exhausted: events:dead-letter:*).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('event_outbox', (table) => {
    table.bigIncrements('outbox_id').primary();
    table.string('event_uuid', 64).notNullable().unique('event_outbox_event_uuid_unique');
    table.string('subscription_name', 255).notNullable();
    table.string('event_name', 255).notNullable();
    table.string('entity_key', 255).notNullable();
    table.text('payload').notNullable();
    table.string('status', 16).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.bigInteger('next_attempt_at').notNullable();
    table.bigInteger('lease_until').notNullable().defaultTo(0);
    table.string('last_error', 255).nullable();
    table.bigInteger('created_at').notNullable();
    table.bigInteger('delivered_at').nullable();
    table.index(['status', 'next_attempt_at'], 'event_outbox_status_next_idx');
    table.index(['subscription_name', 'entity_key', 'status'], 'event_outbox_entity_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('event_outbox');
}
