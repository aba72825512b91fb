/**
 * `module:uninstall --remove-data`: rolls back one module's applied migrations, newest first, by
 * knex's own rollback under one migration lock, and nothing of any other module: a migration the
 * owner table (MigrationOwners.ts) records as another module's is not this module's, whatever its
 * file is called. Where DDL is
 * transactional (PostgreSQL, SQLite) the whole rollback runs in one transaction, so a `down` that
 * fails leaves every table as it was; MySQL/MariaDB commit each schema change at once, so there each
 * migration is rolled back on its own and a failure says exactly which were and were not.
 */
import type { Knex } from 'knex';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import type { Dialect } from './DatabaseSettings.js';
import { ModuleMigrationSource, type ModuleMigration } from './MigrationSource.js';
import { appliedMigrationNames, forgetMigrationOwners, readMigrationOwners } from './MigrationOwners.js';

export class ModuleRollbackError extends Error {
  constructor(
    readonly module: string,
    readonly failed: string,
    readonly rolledBack: readonly string[],
    readonly notRolledBack: readonly string[],
    cause: unknown,
    transactional: boolean,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      transactional
        ? `Rolling back ${module} failed in ${failed}: ${reason}. Nothing was rolled back: the rollback ran in one transaction, which the database undid; ` +
            `${notRolledBack.length} migration(s) of ${module} stay applied (${notRolledBack.join(', ')}).`
        : `Rolling back ${module} failed in ${failed}: ${reason}. ` +
            `Rolled back: ${rolledBack.length ? rolledBack.join(', ') : 'none'}. Not rolled back (still applied): ${notRolledBack.join(', ')}. ` +
            `MySQL/MariaDB commit each schema change at once, so ${failed}'s down may have run in part: check its tables before trying again.`,
      { cause },
    );
    this.name = 'ModuleRollbackError';
  }
}

/** The module's own applied migrations, remembering which one's down is running (to name it when it fails). */
class RollbackSource extends ModuleMigrationSource {
  running?: string;

  constructor(
    module: ModuleDefinition,
    private readonly owned: ReadonlySet<string>,
    extensions?: readonly string[],
  ) {
    super([module], { extensions });
  }

  override async getMigrations(): Promise<ModuleMigration[]> {
    return (await super.getMigrations()).filter((migration) => this.owned.has(migration.name));
  }

  override async getMigration(migration: ModuleMigration): Promise<Knex.Migration> {
    const content = await super.getMigration(migration);
    return {
      ...content,
      down: async (knex: Knex) => {
        this.running = migration.name;
        await content.down?.(knex);
      },
    };
  }
}

/**
 * The module's applied migrations, oldest first: its files' names that knex_migrations holds,
 * but for those the owner table records as another module's (an unrecorded one, from before
 * owners were recorded, is taken as the module's: two installed modules cannot ship one name).
 */
export async function appliedModuleMigrations(
  knex: Knex,
  module: ModuleDefinition,
  extensions?: readonly string[],
): Promise<string[]> {
  const applied = new Set(await appliedMigrationNames(knex));
  const owners = await readMigrationOwners(knex);
  return new ModuleMigrationSource([module], { extensions })
    .list()
    .map((migration) => migration.name)
    .filter((name) => applied.has(name) && (owners.get(name) ?? module.name) === module.name);
}

/** Rolls back every applied migration of `module`, newest first; answers their names in that order. */
export async function rollBackModule(
  knex: Knex,
  dialect: Dialect,
  module: ModuleDefinition,
  extensions?: readonly string[],
): Promise<string[]> {
  const before = await appliedModuleMigrations(knex, module, extensions);
  if (before.length === 0) return [];
  // Only this module's migrations are listed: knex would otherwise call the others "missing".
  const source = new RollbackSource(module, new Set(before), extensions);
  const config: Knex.MigratorConfig = { migrationSource: source, disableMigrationsListValidation: true };
  const transactional = dialect !== 'mysql';
  try {
    if (transactional) {
      return await knex.transaction(async (trx) => {
        const [, log] = (await trx.migrate.rollback(config, true)) as [number, string[]];
        await forgetMigrationOwners(trx, log);
        return log;
      });
    }
    const [, log] = (await knex.migrate.rollback(config, true)) as [number, string[]];
    await forgetMigrationOwners(knex, log);
    return log;
  } catch (error) {
    const after = await appliedModuleMigrations(knex, module, extensions);
    const rolledBack = before.filter((name) => !after.includes(name)).reverse();
    if (!transactional) await forgetMigrationOwners(knex, rolledBack);
    throw new ModuleRollbackError(
      module.name,
      source.running ?? after[after.length - 1] ?? module.name,
      rolledBack,
      after,
      error,
      transactional && rolledBack.length === 0,
    );
  }
}
