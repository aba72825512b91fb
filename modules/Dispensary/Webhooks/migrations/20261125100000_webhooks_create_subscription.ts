import type { Knex } from 'knex';

/**
 * Run-time webhook subscriptions (`POST /V1/webhooks/subscribe`). One row per hook, unique by
 * method, type, batch and hook name; `definition` is the hook as JSON (no secret); `secret` is the
 * Standard Webhooks signing secret, encrypted like the OAuth secrets (Integration's Encryptor).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscription', (table) => {
    table.increments('subscription_id').primary();
    table.string('webhook_method', 255).notNullable();
    table.string('webhook_type', 8).notNullable();
    table.string('batch_name', 64).notNullable();
    table.string('hook_name', 64).notNullable();
    table.text('definition').notNullable();
    table.text('secret').notNullable();
    table.string('created_at', 19).notNullable();
    table.unique(['webhook_method', 'webhook_type', 'batch_name', 'hook_name'], {
      indexName: 'webhook_subscription_hook_unique',
    });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_subscription');
}
