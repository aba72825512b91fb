/**
 * knex migrations owned by modules: each module keeps `migrations/<timestamp>_<name>.ts` next to
 * its code. Names are unique across modules (a clash is a start-up error) and ordered by name, so
 * the timestamp prefix decides the order across modules too.
 *
 * A disabled or removed module's tables stay, as in Magento. knex calls a migration directory
 * "corrupt" when a migration it recorded is missing from the list, so, given the database, the
 * source also lists every applied migration of a module that is disabled (from its files: its
 * `down` still works) or gone (known only by name, from knex_migrations and the owner table; its
 * up and down refuse with a message that names the module). Those are never pending, so they never run up.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { ConfigError } from '../xml/xml.js';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { isUnavailable, storageFailure } from './driverErrors.js';
import {
  appliedMigrationNames,
  KNEX_MIGRATIONS_LOCK_TABLE,
  KNEX_MIGRATIONS_TABLE,
  readMigrationOwners,
} from './MigrationOwners.js';

/** `enabled`: its module is enabled; `disabled`: applied, its module disabled; `absent`: applied, its module's folder gone. */
export type MigrationState = 'enabled' | 'disabled' | 'absent';

/** The owner of an applied migration whose module is gone and was never recorded. */
export const UNKNOWN_MODULE = '(unknown module)';

export interface ModuleMigration {
  readonly name: string;
  readonly module: string;
  /** None for a migration whose module's folder is gone. */
  readonly file?: string;
  readonly state: MigrationState;
}

export interface MigrationSourceOptions {
  /**
   * The service runs compiled `.js`; the knex CLI (knexfile.ts, under tsx) runs the `.ts`
   * sources. The name leaves out the extension, so both record the same migration.
   */
  readonly extensions?: readonly string[];
  /** Every module of the module folders, enabled or not (a disabled module's applied migrations come from its files). */
  readonly installed?: readonly ModuleDefinition[];
  /** Where to read what was applied; without it the source lists the enabled modules' migrations only. */
  readonly knex?: Knex;
}

/** The migrations in a module's `migrations/` folder. */
export function moduleMigrationFiles(
  module: ModuleDefinition,
  extensions: readonly string[] = ['.js', '.mjs'],
): ModuleMigration[] {
  const dir = path.join(module.codeDir, 'migrations');
  if (!existsSync(dir)) return [];
  const found: ModuleMigration[] = [];
  for (const entry of readdirSync(dir)) {
    const extension = extensions.find((candidate) => entry.endsWith(candidate));
    if (!extension || entry.endsWith('.d.ts')) continue;
    found.push({
      name: entry.slice(0, -extension.length),
      module: module.name,
      file: path.join(dir, entry),
      state: 'enabled',
    });
  }
  return found.sort(byName);
}

/**
 * A migration name shipped by two modules (enabled or only installed) is a start-up error naming
 * both files: knex_migrations records names alone, so the database could not tell whose it applied,
 * and module:uninstall --remove-data of one would roll back the other's.
 */
export function checkMigrationNames(
  modules: readonly ModuleDefinition[],
  extensions: readonly string[] = ['.js', '.mjs'],
): void {
  const seen = new Map<string, ModuleMigration>();
  const checked = new Set<string>();
  for (const module of modules) {
    if (checked.has(module.dir)) continue;
    checked.add(module.dir);
    for (const migration of moduleMigrationFiles(module, extensions)) {
      const other = seen.get(migration.name);
      if (other && other.module !== migration.module)
        throw new ConfigError(
          `Migration name "${migration.name}" is used by both ${other.module} (${other.file}) and ${module.name} (${migration.file}): ` +
            `knex_migrations records names only, so one of the files must be renamed`,
        );
      seen.set(migration.name, migration);
    }
  }
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name.localeCompare(b.name);
}

export class ModuleMigrationSource implements Knex.MigrationSource<ModuleMigration> {
  private readonly migrations: ModuleMigration[];
  /** Migrations of installed modules that are disabled, by name. */
  private readonly disabledFiles = new Map<string, ModuleMigration>();
  private readonly knex?: Knex;

  constructor(modules: readonly ModuleDefinition[], options: MigrationSourceOptions = {}) {
    const extensions = options.extensions ?? ['.js', '.mjs'];
    // Enabled or only installed: knex_migrations records names alone, so one name shipped twice makes one module's rollback the other's.
    checkMigrationNames([...modules, ...(options.installed ?? [])], extensions);
    const byNameMap = new Map<string, ModuleMigration>();
    for (const module of modules) {
      for (const migration of moduleMigrationFiles(module, extensions)) byNameMap.set(migration.name, migration);
    }
    this.migrations = [...byNameMap.values()].sort(byName);
    const enabled = new Set(modules.map((module) => module.name));
    for (const module of options.installed ?? []) {
      if (enabled.has(module.name)) continue;
      for (const migration of moduleMigrationFiles(module, extensions)) {
        if (!byNameMap.has(migration.name)) this.disabledFiles.set(migration.name, { ...migration, state: 'disabled' });
      }
    }
    this.knex = options.knex;
  }

  /** The enabled modules' migrations, in order. */
  list(): readonly ModuleMigration[] {
    return this.migrations;
  }

  async getMigrations(): Promise<ModuleMigration[]> {
    if (!this.knex) return [...this.migrations];
    return [...this.migrations, ...(await this.kept())].sort(byName);
  }

  /** Applied migrations of modules that are disabled or gone, oldest first. */
  async kept(): Promise<ModuleMigration[]> {
    if (!this.knex) return [];
    const own = new Set(this.migrations.map((migration) => migration.name));
    const missing = (await appliedMigrationNames(this.knex)).filter((name) => !own.has(name));
    if (missing.length === 0) return [];
    const owners = await readMigrationOwners(this.knex);
    return missing.map(
      (name): ModuleMigration =>
        this.disabledFiles.get(name) ?? { name, module: owners.get(name) ?? UNKNOWN_MODULE, state: 'absent' },
    );
  }

  getMigrationName(migration: ModuleMigration): string {
    return migration.name;
  }

  async getMigration(migration: ModuleMigration): Promise<Knex.Migration> {
    if (!migration.file) {
      const refuse = async (): Promise<void> => {
        throw new ConfigError(
          `Migration ${migration.name} belongs to ${migration.module}, which is no longer in the module folders: its code (up and down) left with it. ` +
            `Put the module's folder back (disabled is fine) to roll it back, e.g. with module:uninstall --remove-data ${migration.module}.`,
        );
      };
      return { up: refuse, down: refuse };
    }
    return (await import(pathToFileURL(migration.file).href)) as Knex.Migration;
  }
}

/** Applied migrations of one disabled or absent module. */
export interface KeptMigrations {
  readonly module: string;
  readonly state: 'disabled' | 'absent';
  readonly migrations: readonly string[];
}

export function groupKept(kept: readonly ModuleMigration[]): KeptMigrations[] {
  const groups = new Map<string, { module: string; state: 'disabled' | 'absent'; migrations: string[] }>();
  for (const migration of kept) {
    if (migration.state === 'enabled') continue;
    const group = groups.get(migration.module) ?? { module: migration.module, state: migration.state, migrations: [] };
    group.migrations.push(migration.name);
    groups.set(migration.module, group);
  }
  return [...groups.values()].sort((a, b) => a.module.localeCompare(b.module));
}

/** What setup:upgrade and start-up say about a disabled or removed module's tables. */
export function keptWarning(group: KeptMigrations): string {
  const count = `${group.migrations.length} applied migration${group.migrations.length === 1 ? '' : 's'}`;
  const names = group.migrations.join(', ');
  if (group.module === UNKNOWN_MODULE) {
    return `${count} of a module that is no longer installed ${group.migrations.length === 1 ? 'is' : 'are'} kept (${names}); its owner was never recorded, so nothing can roll ${group.migrations.length === 1 ? 'it' : 'them'} back.`;
  }
  if (group.state === 'disabled') {
    return `${group.module} is disabled; its ${count} ${group.migrations.length === 1 ? 'is' : 'are'} kept. module:uninstall --remove-data ${group.module} removes its tables.`;
  }
  return `${group.module} is not installed (no folder in the module folders); its ${count} ${group.migrations.length === 1 ? 'is' : 'are'} kept (${names}). Put its folder back and run module:uninstall --remove-data ${group.module} to remove its tables.`;
}

/**
 * Applies pending migrations. Several processes may start at once: knex's migration lock lets one
 * run them; the others wait for the lock and then find nothing left to do.
 */
export async function migrateLatest(knex: Knex, source: ModuleMigrationSource, timeoutMs = 120_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await ensureMigrationLockRow(knex);
      const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
      return applied;
    } catch (error) {
      const message = (error as Error).message ?? '';
      // knex reports a failed lock update as a LockError with only the driver's message: a
      // read-only or full database must say so, not wait two minutes as if another process held the lock.
      const storage = storageFailure(error) ?? storageFailureInMessage(message);
      if (storage) throw new DatabaseStorageError(storage, message);
      const contended =
        (error as Error).name === 'LockError' ||
        /already locked|already exists|duplicate key|Duplicate entry|UNIQUE constraint failed/i.test(message);
      if (!contended || isUnavailable(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/**
 * knex makes its lock row by "select, and insert if there is none": processes starting at once on
 * a new database can each insert one, and with two rows knex's lock (`update ... where is_locked = 0`,
 * which must touch exactly one row) is refused to everyone for ever ("Migration table is already
 * locked"). So the tables and the one row are made here first, race-safe: the row has a fixed key,
 * and rows a past race left beside it go.
 */
async function ensureMigrationLockRow(knex: Knex): Promise<void> {
  await createTableOnce(knex, KNEX_MIGRATIONS_TABLE, (table) => {
    // knex's own definition (table-creator.js), so that knex finds the table as it would have made it.
    table.increments();
    table.string('name');
    table.integer('batch');
    table.timestamp('migration_time');
  });
  await createTableOnce(knex, KNEX_MIGRATIONS_LOCK_TABLE, (table) => {
    table.increments('index').primary();
    table.integer('is_locked');
  });
  const rows = (await knex(KNEX_MIGRATIONS_LOCK_TABLE).select('index').orderBy('index')) as { index: number }[];
  if (rows.length === 0) {
    await knex(KNEX_MIGRATIONS_LOCK_TABLE).insert({ index: 1, is_locked: 0 }).onConflict('index').ignore();
  } else if (rows.length > 1) {
    await knex(KNEX_MIGRATIONS_LOCK_TABLE).where('index', '>', rows[0]!.index).delete();
  }
}

/** Creates a table unless it is there; another process creating it at the same moment is fine. */
async function createTableOnce(
  knex: Knex,
  name: string,
  define: (table: Knex.CreateTableBuilder) => void,
): Promise<void> {
  if (await knex.schema.hasTable(name)) return;
  try {
    await knex.schema.createTable(name, define);
  } catch (error) {
    if (!(await knex.schema.hasTable(name))) throw error;
  }
}

/** The database cannot be written at start-up: the message names why, for the operator. */
export class DatabaseStorageError extends Error {
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(
      reason === 'read-only'
        ? `The database is read-only, so migrations cannot be applied: ${detail}. Make the database file and its directory writable by the service (or give the database user write access).`
        : `The database cannot be written (${reason}), so migrations cannot be applied: ${detail}.`,
    );
    this.name = 'DatabaseStorageError';
  }
}

function storageFailureInMessage(message: string): string | null {
  if (/readonly database|read-only/i.test(message)) return 'read-only';
  if (/database or disk is full/i.test(message)) return 'disk full';
  if (/disk I\/O error/i.test(message)) return 'I/O error';
  return null;
}
