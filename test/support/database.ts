/**
 * A database of its own for each test application: a fresh SQLite file by default, or, when
 * TEST_DATABASE_URL names a MySQL/MariaDB or PostgreSQL server, a new database (MySQL) or schema
 * (PostgreSQL) on it, dropped again on release. Runs can never collide.
 *
 * On SQLite a test application's file may start as a copy of a migrated template (saveTemplate,
 * restoreTemplate; TestApp.start uses them): running every migration took most of a test's start.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';

export interface TestDatabase {
  readonly url: string;
  release(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (!server || server.startsWith('sqlite:')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dispensary-test-'));
    return {
      url: `sqlite:${path.join(dir, 'db.sqlite')}`,
      release: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const settings = parseDatabaseUrl(server);
  const admin = knexFactory({ ...settings.config, pool: { min: 0, max: 1 } });
  try {
    if (settings.dialect === 'mysql') {
      await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        release: async () => {
          const drop = knexFactory({ ...settings.config, pool: { min: 0, max: 1 } });
          await drop.raw(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => drop.destroy());
        },
      };
    }
    await admin.raw(`CREATE SCHEMA "${name}"`);
    const url = new URL(server);
    url.searchParams.set('schema', name);
    return {
      url: url.toString(),
      release: async () => {
        const drop = knexFactory({ ...settings.config, pool: { min: 0, max: 1 } });
        await drop.raw(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).finally(() => drop.destroy());
      },
    };
  } finally {
    await admin.destroy();
  }
}

/** The SQLite file of a test database, or undefined on a server. */
function sqliteFile(database: TestDatabase): string | undefined {
  return database.url.startsWith('sqlite:') ? database.url.slice('sqlite:'.length) : undefined;
}

let templateFolder: string | undefined;
let saved = 0;
const templates = new Map<string, string>();
/** Keys whose template is being written: two starts at once of one module set save it once. */
const saving = new Set<string>();

/**
 * SQLite: keeps a copy of a database just migrated (nothing else written yet) as the template of
 * `key`, for restoreTemplate. Once per key and process, in a folder removed when the process exits.
 */
export async function saveTemplate(database: TestDatabase, key: string, knex: Knex): Promise<void> {
  if (!sqliteFile(database) || templates.has(key) || saving.has(key)) return;
  saving.add(key);
  try {
    if (!templateFolder) {
      const created = mkdtempSync(path.join(os.tmpdir(), 'test-templates-'));
      templateFolder = created;
      process.on('exit', () => rmSync(created, { recursive: true, force: true }));
    }
    const file = path.join(templateFolder, `${++saved}.sqlite`);
    // VACUUM INTO writes a consistent, self-contained copy (no -wal file beside it) through the open connection.
    await knex.raw('VACUUM INTO ?', [file]);
    templates.set(key, file);
  } finally {
    saving.delete(key);
  }
}

/**
 * SQLite: fills a fresh test database (before anything opened it) with a copy of the template of
 * `key`; false when there is none (on a server, or no test of this process saved one yet).
 */
export function restoreTemplate(database: TestDatabase, key: string): boolean {
  const file = sqliteFile(database);
  const template = templates.get(key);
  if (!file || !template) return false;
  copyFileSync(template, file);
  return true;
}
