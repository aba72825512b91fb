/**
 * How each driver (better-sqlite3, mysql2, pg) reports a lock conflict, a lost connection, a
 * storage failure or a duplicate key, classified once here so callers stay dialect-free.
 */
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
  '57014', // query_canceled: statement_timeout (queryTimeouts.ts)
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
  // MariaDB's max_statement_time, MySQL's max_execution_time (queryTimeouts.ts).
  if (e.errno === 1969 || e.errno === 3024) return true;
  const message = e.message ?? '';
  // pg's connect timeout (connectionTimeoutMillis, DB_CONNECT_TIMEOUT_MS).
  if (message === 'timeout expired') return true;
  return (
    e.name === 'KnexTimeoutError' ||
    /Connection terminated|Connection lost|connect ECONNREFUSED|Can't add new command when connection is in closed state|Client has encountered a connection error|timeout exceeded when trying to connect|read ECONNRESET|Query read timeout|Connection terminated due to connection timeout/i.test(
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
  if (
    code.startsWith('SQLITE_READONLY') ||
    e.errno === 1290 ||
    e.errno === 1792 ||
    e.errno === 1036 ||
    code === '25006'
  )
    return 'read-only';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === '58030') return 'I/O error';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'XX001' || code === 'XX002')
    return 'corrupt';
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
