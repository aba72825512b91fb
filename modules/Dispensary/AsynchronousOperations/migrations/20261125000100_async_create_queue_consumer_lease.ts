import type { Knex } from 'knex';

/**
 * The consumer lease (app/framework/queue/ConsumerLease.ts): on SQLite, one writer, only the
 * consumer process holding a queue's lease consumes; the others stand by. expires_at is epoch
 * milliseconds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('queue_consumer_lease', (table) => {
    table.string('queue_name', 255).primary();
    table.string('owner', 36).notNullable();
    table.bigInteger('expires_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('queue_consumer_lease');
}
