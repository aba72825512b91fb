/**
 * A database of its own for each test application: a fresh SQLite file by default, or, when
 * TEST_DATABASE_URL names a MySQL/MariaDB or PostgreSQL server, a new database (MySQL) or schema
 * (PostgreSQL) on it, dropped again on release. Runs can never collide.
 */
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';

export interface TestDatabase {
  readonly url: string;
  release(): Promise<void>;
}

/**
 * Where the SQLite files go: TEST_SQLITE_DIR, else /dev/shm where it is a writable folder (Linux's
 * shared memory, a tmpfs), else the temporary folder. They are real SQLite files in WAL mode all
 * the same; on tmpfs a commit's fsync costs nothing, where on a disk every migration and every
 * test's writes wait for it (half the wall time of a test's start on this project's CI machine).
 */
function sqliteFolder(): string {
  if (process.env.TEST_SQLITE_DIR) return process.env.TEST_SQLITE_DIR;
  try {
    accessSync('/dev/shm', constants.W_OK | constants.X_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}
const SQLITE_FOLDER = sqliteFolder();

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (!server || server.startsWith('sqlite:')) {
    const dir = mkdtempSync(path.join(SQLITE_FOLDER, 'dispensary-test-'));
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
