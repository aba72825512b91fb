/**
 * Which module each applied migration belongs to, in a table of the framework's
 * (`setup_module_migration`: migration name -> `Vendor_Module`). knex_migrations records only
 * names; once a module's folder is gone its migrations could no longer be named by module, so
 * setup:upgrade records the owner of every applied migration whose module it can still see
 * (Magento keeps its `setup_module` table for the same reason). Names do not tell the owner:
 * the project's older migrations carry the module's name without its vendor (`store_...`).
 */
import type { Knex } from 'knex';

export const MIGRATION_OWNER_TABLE = 'setup_module_migration';
/** knex's own table (its default `tableName`). */
export const KNEX_MIGRATIONS_TABLE = 'knex_migrations';
/** knex's lock table: one row, `is_locked` 0 or 1. */
export const KNEX_MIGRATIONS_LOCK_TABLE = 'knex_migrations_lock';

/** The applied migration names, oldest first; none when nothing ever ran. */
export async function appliedMigrationNames(knex: Knex): Promise<string[]> {
  if (!(await knex.schema.hasTable(KNEX_MIGRATIONS_TABLE))) return [];
  const rows = (await knex(KNEX_MIGRATIONS_TABLE).orderBy('id').select('name')) as { name: string }[];
  return rows.map((row) => row.name);
}

/** migration name -> module, as recorded. */
export async function readMigrationOwners(knex: Knex): Promise<Map<string, string>> {
  if (!(await knex.schema.hasTable(MIGRATION_OWNER_TABLE))) return new Map();
  const rows = (await knex(MIGRATION_OWNER_TABLE).select('migration', 'module')) as {
    migration: string;
    module: string;
  }[];
  return new Map(rows.map((row) => [row.migration, row.module]));
}

/** Records owners not yet recorded. Several processes may start at once: both creating the table or a row is fine. */
export async function recordMigrationOwners(knex: Knex, owners: ReadonlyMap<string, string>): Promise<void> {
  if (owners.size === 0) return;
  if (!(await knex.schema.hasTable(MIGRATION_OWNER_TABLE))) {
    try {
      await knex.schema.createTable(MIGRATION_OWNER_TABLE, (table) => {
        table.string('migration', 255).primary();
        table.string('module', 255).notNullable();
      });
    } catch (error) {
      if (!(await knex.schema.hasTable(MIGRATION_OWNER_TABLE))) throw error;
    }
  }
  const recorded = await readMigrationOwners(knex);
  const missing = [...owners]
    .filter(([migration]) => !recorded.has(migration))
    .map(([migration, module]) => ({ migration, module }));
  if (missing.length) await knex(MIGRATION_OWNER_TABLE).insert(missing).onConflict('migration').ignore();
}

export async function forgetMigrationOwners(knex: Knex, migrations: readonly string[]): Promise<void> {
  if (migrations.length === 0 || !(await knex.schema.hasTable(MIGRATION_OWNER_TABLE))) return;
  await knex(MIGRATION_OWNER_TABLE).whereIn('migration', migrations).delete();
}
