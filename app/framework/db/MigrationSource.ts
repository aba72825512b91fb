/**
 * knex migrations owned by modules: each module keeps `migrations/<timestamp>_<name>.ts` next to
 * its code. Names are unique across modules (a clash is a start-up error) and ordered by name, so
 * the timestamp prefix decides the order across modules too.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { ConfigError } from '../config/xml.js';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { isUnavailable, storageFailure } from './dialect.js';

export interface ModuleMigration {
  readonly name: string;
  readonly module: string;
  readonly file: string;
}

export class ModuleMigrationSource implements Knex.MigrationSource<ModuleMigration> {
  private readonly migrations: ModuleMigration[];

  /**
   * `extensions`: the service runs compiled `.js`; the knex CLI (knexfile.ts, under tsx) runs the
   * `.ts` sources. The name leaves out the extension, so both record the same migration.
   */
  constructor(modules: readonly ModuleDefinition[], extensions: readonly string[] = ['.js', '.mjs']) {
    const byName = new Map<string, ModuleMigration>();
    for (const module of modules) {
      const dir = path.join(module.codeDir, 'migrations');
      if (!existsSync(dir)) continue;
      for (const entry of readdirSync(dir)) {
        const extension = extensions.find((candidate) => entry.endsWith(candidate));
        if (!extension || entry.endsWith('.d.ts')) continue;
        const name = entry.slice(0, -extension.length);
        const other = byName.get(name);
        if (other) throw new ConfigError(`Migration name "${name}" is used by both ${other.module} and ${module.name}`);
        byName.set(name, { name, module: module.name, file: path.join(dir, entry) });
      }
    }
    this.migrations = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  list(): readonly ModuleMigration[] {
    return this.migrations;
  }

  async getMigrations(): Promise<ModuleMigration[]> {
    return [...this.migrations];
  }

  getMigrationName(migration: ModuleMigration): string {
    return migration.name;
  }

  async getMigration(migration: ModuleMigration): Promise<Knex.Migration> {
    return (await import(pathToFileURL(migration.file).href)) as Knex.Migration;
  }
}

/**
 * Applies pending migrations. Several processes may start at once: knex's migration lock lets one
 * run them; the others wait for the lock and then find nothing left to do.
 */
export async function migrateLatest(knex: Knex, source: ModuleMigrationSource, timeoutMs = 120_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
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
