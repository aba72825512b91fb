/**
 * Everything that differs between SQLite, MySQL/MariaDB and PostgreSQL lives here: how a URL
 * becomes a knex config, how each driver reports a lost connection or a lock conflict, and how
 * values come back. Migrations and repositories stay dialect-free.
 */
import type { Knex } from 'knex';
import pg from 'pg';

export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export interface DatabaseSettings {
  readonly url: string;
  readonly dialect: Dialect;
  readonly config: Knex.Config;
}

const PG_TIMESTAMP = 1114;
const PG_NUMERIC = 1700;
let pgParsersSet = false;

/** pg answers timestamps as Date and numerics as strings; we want Magento's text form and numbers. */
function setPgParsers(): void {
  if (pgParsersSet) return;
  pg.types.setTypeParser(PG_TIMESTAMP, (text: string) => text.slice(0, 19));
  pg.types.setTypeParser(PG_NUMERIC, (text: string) => Number(text));
  pgParsersSet = true;
}

interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

/**
 * SQLite's built-in lower() folds ASCII only; MySQL's and PostgreSQL's fold every letter. The
 * connection's own lower() (Unicode, as JavaScript folds) makes case-insensitive search criteria
 * (`É` like `é`) answer the same on all three.
 */
function unicodeLower(conn: SqliteConnection): void {
  conn.function('lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
}

/** Distinct SQL texts kept prepared per connection; queries with varying IN-list lengths make a few more. */
const STATEMENT_CACHE_SIZE = 200;
/** Longer SQL (e.g. a many-row insert) is prepared each time: its run dwarfs its preparation, and its compiled program can weigh 100 KiB. */
const MAX_CACHED_SQL_LENGTH = 32 * 1024;

/**
 * Performance: knex's better-sqlite3 client prepares every query afresh (`connection.prepare(sql)`
 * on each call), and the profile of Add Items showed statement preparation at ~13% of the
 * service's CPU. Knex produces the same SQL text for the same query shape, so the connection
 * keeps its prepared statements by text and hands them out again (prepare once). Safe because
 * better-sqlite3 runs a statement to completion synchronously (knex uses all()/run(), never
 * iterate()), knex sets no per-statement modes, and SQLite re-prepares a statement by itself
 * after a schema change. Bounded: the oldest statement is dropped past STATEMENT_CACHE_SIZE, and
 * very long SQL is not kept.
 */
function cachePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    if (sql.length > MAX_CACHED_SQL_LENGTH) return prepare(sql);
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  };
}

export function parseDatabaseUrl(url: string): DatabaseSettings {
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
            try {
              if (filename !== ':memory:') conn.pragma('journal_mode = WAL');
              conn.pragma('busy_timeout = 5000');
              conn.pragma('foreign_keys = ON');
              unicodeLower(conn);
              cachePreparedStatements(conn);
              done(null, conn);
            } catch (err) {
              done(err as Error, conn);
            }
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
          connectTimeout: 5000,
        },
        pool: { min: 0, max: 10 },
        acquireConnectionTimeout: 10000,
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
        connection: { connectionString: parsed.toString(), connectionTimeoutMillis: 5000 },
        searchPath: schema ? [schema] : undefined,
        pool: { min: 0, max: 10 },
        acquireConnectionTimeout: 10000,
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

interface DriverError {
  code?: string | number;
  errno?: number;
  message?: string;
  name?: string;
}

/** A conflict that a retry of the whole transaction resolves: deadlock, serialization, busy. */
export function isRetryableConflict(error: unknown): boolean {
  const e = error as DriverError;
  if (!e || typeof e !== 'object') return false;
  return (
    e.errno === 1213 || // ER_LOCK_DEADLOCK
    e.errno === 1205 || // ER_LOCK_WAIT_TIMEOUT
    e.code === '40001' || // serialization_failure
    e.code === '40P01' || // deadlock_detected
    e.code === 'SQLITE_BUSY' ||
    e.code === 'SQLITE_BUSY_SNAPSHOT' ||
    e.code === 'SQLITE_LOCKED'
  );
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** The database cannot be reached (or just went away): the request answers 503, not 500. */
export function isUnavailable(error: unknown): boolean {
  const e = error as DriverError;
  if (!e || typeof e !== 'object') return false;
  if (e.code !== undefined && UNAVAILABLE_CODES.has(String(e.code))) return true;
  const message = e.message ?? '';
  return (
    e.name === 'KnexTimeoutError' ||
    /Connection terminated|Connection lost|connect ECONNREFUSED|Can't add new command when connection is in closed state|Client has encountered a connection error|timeout exceeded when trying to connect|read ECONNRESET/i.test(
      message,
    )
  );
}

export type StorageFailure = 'disk full' | 'read-only' | 'I/O error' | 'corrupt';

/**
 * The database answers but cannot write (or read) its files: a full disk, a read-only file or
 * server, an I/O error, a damaged file. Nothing the request can change; the request answers 503
 * and /health reports the reason until a write succeeds again.
 */
export function storageFailure(error: unknown): StorageFailure | null {
  const e = error as DriverError;
  if (!e || typeof e !== 'object') return null;
  const code = String(e.code ?? '');
  if (code === 'SQLITE_FULL' || e.errno === 1114 || e.errno === 1021 || code === '53100') return 'disk full';
  // 1290: --read-only; 1792: a read-only transaction; 1036: a table opened read-only.
  if (code.startsWith('SQLITE_READONLY') || e.errno === 1290 || e.errno === 1792 || e.errno === 1036 || code === '25006') return 'read-only';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === '58030') return 'I/O error';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'XX001' || code === 'XX002') return 'corrupt';
  return null;
}

/** A unique index refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as DriverError;
  if (!e || typeof e !== 'object') return false;
  return (
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062 ||
    e.code === '23505' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** UTC time in Magento's text form `YYYY-MM-DD HH:MM:SS`, the form every dialect stores. */
export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
