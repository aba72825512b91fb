/**
 * DATABASE_URL -> the knex config of its dialect: the driver, its connection options, and what
 * each connection is set up with (SQLite pragmas and functions, pg type parsers).
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DatabaseSettings } from './DatabaseSettings.js';
import {
  DEFAULT_DATABASE_TIMEOUTS,
  mysqlAfterCreate,
  pgAfterCreate,
  pgTimeoutOptions,
  type DatabaseTimeouts,
} from './queryTimeouts.js';
import { cachePreparedStatements, type SqliteConnection } from './sqliteStatementCache.js';

const PG_TIMESTAMP = 1114;
const PG_NUMERIC = 1700;
let pgParsersSet = false;

/** pg answers timestamps as Date and numerics as strings; we want Magento's text form and numbers. */
function setPgParsers(): void {
  if (pgParsersSet) return;
  // Loaded for a PostgreSQL URL only (knex loads the same module as its driver): SQLite and MySQL processes never import pg.
  const { types } = createRequire(import.meta.url)('pg') as typeof pg;
  types.setTypeParser(PG_TIMESTAMP, (text: string) => text.slice(0, 19));
  types.setTypeParser(PG_NUMERIC, (text: string) => Number(text));
  pgParsersSet = true;
}

/**
 * SQLite's built-in lower() folds ASCII only; MySQL's and PostgreSQL's fold every letter. The
 * connection's own lower() (Unicode, as JavaScript folds) makes case-insensitive search criteria
 * (`É` like `é`) answer the same on all three.
 */
function unicodeLower(conn: SqliteConnection): void {
  conn.function('lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
}

/** How long a SQLite connection waits for another's lock, and how often it retries the switch to WAL. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
const WAL_RETRY_MS = 20;

/** `timeouts` bound each wait on a server database (queryTimeouts.ts); SQLite, a local file, has none. */
export function parseDatabaseUrl(
  url: string,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
): DatabaseSettings {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') || ':memory:';
    return {
      url,
      dialect: 'sqlite',
      config: {
        client: 'better-sqlite3',
        connection: { filename },
        useNullAsDefault: true,
        // better-sqlite3 is synchronous: one connection, and requests queue for it.
        pool: {
          min: 1,
          max: 1,
          idleTimeoutMillis: Number.MAX_SAFE_INTEGER,
          afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
            const setUp = (waited: number): void => {
              try {
                conn.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
                if (filename !== ':memory:') conn.pragma('journal_mode = WAL');
                conn.pragma('foreign_keys = ON');
                unicodeLower(conn);
                cachePreparedStatements(conn);
                done(null, conn);
              } catch (err) {
                // Switching a new file to WAL needs its exclusive lock, and SQLite answers BUSY at
                // once, without waiting, while another connection is writing to it (several
                // processes starting on a new database): try again, for the busy timeout.
                if ((err as { code?: string }).code === 'SQLITE_BUSY' && waited < SQLITE_BUSY_TIMEOUT_MS) {
                  setTimeout(() => setUp(waited + WAL_RETRY_MS), WAL_RETRY_MS);
                } else done(err as Error, conn);
              }
            };
            setUp(0);
          },
        },
      },
    };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    const parsed = new URL(url);
    return {
      url,
      dialect: 'mysql',
      config: {
        client: 'mysql2',
        connection: {
          host: parsed.hostname,
          port: Number(parsed.port || 3306),
          user: decodeURIComponent(parsed.username),
          password: decodeURIComponent(parsed.password),
          database: parsed.pathname.replace(/^\//, ''),
          dateStrings: true,
          decimalNumbers: true,
          supportBigNumbers: true,
          charset: 'utf8mb4',
          timezone: 'Z',
          connectTimeout: timeouts.connectMs,
          enableKeepAlive: true,
          keepAliveInitialDelay: 10_000,
        },
        pool: { min: 0, max: 10, afterCreate: mysqlAfterCreate(timeouts) },
        acquireConnectionTimeout: timeouts.acquireMs,
      },
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    setPgParsers();
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema');
    parsed.searchParams.delete('schema');
    return {
      url,
      dialect: 'postgres',
      config: {
        client: 'pg',
        connection: { connectionString: parsed.toString(), ...pgTimeoutOptions(timeouts) },
        searchPath: schema ? [schema] : undefined,
        pool: { min: 0, max: 10, afterCreate: pgAfterCreate(timeouts) },
        acquireConnectionTimeout: timeouts.acquireMs,
      },
    };
  }
  throw new Error(
    `Unsupported DATABASE_URL "${redactUrl(url)}": use sqlite:<file>, mysql://user:pass@host:port/db or postgres://user:pass@host:port/db`,
  );
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
