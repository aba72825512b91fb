import type { Knex } from 'knex';

/**
 * The `db` queue connection's messages (used when AMQP_URL is not set). available_at and
 * created_at are epoch milliseconds: a claimed message is pushed past now by the lock timeout.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('queue_message', (table) => {
    table.bigIncrements('id').primary();
    table.string('queue_name', 255).notNullable();
    table.string('topic_name', 255).notNullable();
    table.text('body', 'mediumtext').notNullable();
    table.bigInteger('available_at').notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.string('locked_by', 36).nullable();
    table.bigInteger('created_at').notNullable();
    table.index(['queue_name', 'available_at', 'id'], 'queue_message_claim_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('queue_message');
}
