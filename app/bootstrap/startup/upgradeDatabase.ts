/**
 * Start-up phase 5 (the server, `setup:upgrade` and tests; Application.setupUpgrade): pending
 * migrations, then the recurring data installers. A disabled or removed module's applied
 * migrations (and so its tables) are kept: each such module is named in a warning and in `kept`.
 */
import type { Knex } from 'knex';
import { appliedMigrationNames, recordMigrationOwners } from '../../framework/db/MigrationOwners.js';
import {
  groupKept,
  keptWarning,
  migrateLatest,
  moduleMigrationFiles,
  ModuleMigrationSource,
  type KeptMigrations,
} from '../../framework/db/MigrationSource.js';
import { parseDatabaseUrl, type DatabaseSettings } from '../../framework/db/dialect.js';
import type { DataInstallerList } from '../../framework/setup/DataInstallerList.js';
import type { DeploymentConfig } from '../config/DeploymentConfig.js';
import { createKnex } from './createKnex.js';
import type { Configuration } from '../config/loadConfiguration.js';

/** What the upgrade needs; an Application has all of it. */
export interface UpgradeSubject extends Pick<Configuration, 'modules' | 'installedModules' | 'logger'> {
  readonly config: Pick<DeploymentConfig, 'databaseUrl' | 'databaseTimeouts'>;
  readonly database: DatabaseSettings;
  readonly knex: Knex;
  get<T>(id: string): T;
}

export interface UpgradeResult {
  readonly migrations: string[];
  readonly installers: string[];
  readonly kept: KeptMigrations[];
}

/** The enabled modules' migrations, and the applied ones of disabled or removed modules (kept, never run). */
export function migrationSourceOf(
  subject: Pick<UpgradeSubject, 'modules' | 'installedModules' | 'knex'>,
): ModuleMigrationSource {
  return new ModuleMigrationSource(subject.modules, { installed: subject.installedModules, knex: subject.knex });
}

export async function upgradeDatabase(subject: UpgradeSubject): Promise<UpgradeResult> {
  const source = migrationSourceOf(subject);
  const migrations = await withMigrationKnex(subject, (knex) => migrateLatest(knex, source));
  await recordOwners(subject);
  const kept = groupKept(await source.kept());
  for (const group of kept) {
    subject.logger.warn({ module: group.module, migrations: group.migrations }, keptWarning(group));
  }
  const installers = await subject.get<DataInstallerList>('Framework\\Setup\\DataInstallerList').installAll();
  return { migrations, installers, kept };
}

/**
 * Records which module each applied migration belongs to, while its module's folder is there to
 * tell (MigrationOwners.ts).
 */
async function recordOwners({ installedModules, knex }: UpgradeSubject): Promise<void> {
  const applied = new Set(await appliedMigrationNames(knex));
  const owners = new Map<string, string>();
  for (const module of installedModules) {
    for (const migration of moduleMigrationFiles(module)) {
      if (applied.has(migration.name)) owners.set(migration.name, module.name);
    }
  }
  await recordMigrationOwners(knex, owners);
}

/**
 * Migrations may rebuild a large table: on a server database they run on a pool of their own
 * without DB_STATEMENT_TIMEOUT_MS, which bounds requests. SQLite has no statement timeout.
 */
async function withMigrationKnex<T>(subject: UpgradeSubject, run: (knex: Knex) => Promise<T>): Promise<T> {
  const { config, database, knex, logger } = subject;
  if (database.dialect === 'sqlite' || config.databaseTimeouts.statementMs === 0) return run(knex);
  const own = createKnex(parseDatabaseUrl(config.databaseUrl, { ...config.databaseTimeouts, statementMs: 0 }), logger);
  try {
    return await run(own);
  } finally {
    await own.destroy();
  }
}
