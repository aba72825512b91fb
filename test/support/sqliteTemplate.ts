/**
 * Migrated SQLite databases to start from (TestApp.start): the first test application of a
 * process with a given set of modules runs every migration on its new file, as the service does on
 * a new database, and that file is kept as a template; the next ones with the same modules start
 * from a copy of it, and their `setupUpgrade()` then finds no migration pending (the data
 * installers still run, as on every `setup:upgrade`). Creating the tables again for each of the
 * suite's test applications was most of the CPU of `TestApp.start()`.
 *
 * A template is taken for exactly what its migrations would write: the enabled and installed
 * modules (their names and folders) and every migration file of the enabled ones, with its size and
 * mtime, so a test that adds or edits a migration gets a new one. Migrations write no time or
 * setting of their own (knex records each one's migration_time), so a copy holds what running them
 * would have written. Servers (TEST_DATABASE_URL) always migrate: only SQLite files are copied.
 * The templates live in a folder of the process, removed when it exits.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Application } from '../../app/bootstrap/Application.js';

const templates = new Map<string, string>();
let folder: string | undefined;

/** The SQLite file of a `sqlite:` URL; undefined for a server's URL. */
function sqliteFile(databaseUrl: string): string | undefined {
  return databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : undefined;
}

/** What a new database's migrations depend on, hashed (see above). */
function templateKey(app: Application): string {
  const modules = (list: Application['modules']) => list.map((module) => [module.name, module.dir, module.codeDir]);
  const migrations = app
    .migrationSource()
    .list()
    .map((migration) => {
      const stat = migration.file ? statSync(migration.file, { throwIfNoEntry: false }) : undefined;
      return [migration.module, migration.name, migration.file, stat?.size, stat?.mtimeMs];
    });
  const key = JSON.stringify([modules(app.modules), modules(app.installedModules), migrations]);
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Before `app.setupUpgrade()` on a new SQLite file: copies the template of the app's modules over
 * it when there is one. Answers a function to call once the upgrade passed, which keeps the
 * migrated file as the template when there was none.
 */
export function startFromTemplate(app: Application, databaseUrl: string): () => Promise<void> {
  const file = sqliteFile(databaseUrl);
  if (!file) return async () => {};
  const key = templateKey(app);
  const template = templates.get(key);
  if (template) {
    copyFileSync(template, file);
    return async () => {};
  }
  return async () => {
    // Everything into the main file (WAL mode): a copy of it alone is then the whole database.
    await app.knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
    if (!folder) {
      // Beside the test databases (test/support/database.ts: a tmpfs where there is one).
      folder = mkdtempSync(path.join(path.dirname(path.dirname(file)), 'dispensary-templates-'));
      const made = folder;
      process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    }
    const kept = path.join(folder, `${key}.sqlite`);
    copyFileSync(file, kept);
    templates.set(key, kept);
  };
}
