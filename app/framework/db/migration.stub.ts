import type { Knex } from 'knex';

// Use knex's schema builder only (no raw SQL), so the migration runs on SQLite, MySQL/MariaDB and
// PostgreSQL alike; down() undoes up() for `npx knex migrate:rollback`.
export async function up(_knex: Knex): Promise<void> {}

export async function down(_knex: Knex): Promise<void> {}
