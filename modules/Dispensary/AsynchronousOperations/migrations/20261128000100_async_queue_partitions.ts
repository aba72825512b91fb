import type { Knex } from 'knex';

/**
 * Partitions of the `db` queue (app/framework/queue/DbQueuePartitions.ts): a message published
 * with a partition key (the entity it touches) carries `partition_no`, a hash of the key; a
 * consumer claims only messages of partitions it leases (`queue_partition`), so two consumers
 * never work on one entity at once and each entity's operations run in order. Consumers announce
 * themselves in `queue_partition_member`, so each can take its share of the partitions.
 * expires_at is epoch milliseconds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('queue_message', (table) => {
    table.integer('partition_no').nullable();
    table.index(['queue_name', 'partition_no', 'id'], 'queue_message_partition_index');
  });
  await knex.schema.createTable('queue_partition', (table) => {
    table.string('queue_name', 255).notNullable();
    table.integer('partition_no').notNullable();
    table.string('owner', 36).nullable();
    table.bigInteger('expires_at').notNullable().defaultTo(0);
    table.primary(['queue_name', 'partition_no']);
  });
  await knex.schema.createTable('queue_partition_member', (table) => {
    table.string('queue_name', 255).notNullable();
    table.string('owner', 36).notNullable();
    table.bigInteger('expires_at').notNullable();
    table.primary(['queue_name', 'owner']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('queue_partition_member');
  await knex.schema.dropTable('queue_partition');
  await knex.schema.alterTable('queue_message', (table) => {
    table.dropIndex(['queue_name', 'partition_no', 'id'], 'queue_message_partition_index');
    table.dropColumn('partition_no');
  });
}
