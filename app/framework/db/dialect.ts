/**
 * Everything that differs between SQLite, MySQL/MariaDB and PostgreSQL lives in the dialect layer,
 * one concept per file and all exported here: how a URL becomes a knex config (databaseUrl.ts,
 * with SQLite's statement cache in sqliteStatementCache.ts), how each driver reports a lost
 * connection or a lock conflict (driverErrors.ts), the SQL that differs (dialectSql.ts), the
 * stored time form (timestamps.ts), and how each driver runs a prepared query
 * (preparedQueryRunner.ts, with SQLite's side in sqlitePreparedRun.ts), and the types they share
 * (DatabaseSettings.ts). This file is only the barrel: the layer's own files import each other,
 * never it. Migrations and repositories stay dialect-free.
 */
export type { DatabaseSettings, Dialect } from './DatabaseSettings.js';
export { parseDatabaseUrl, redactUrl } from './databaseUrl.js';
export {
  isRetryableConflict,
  isUnavailable,
  isUniqueViolation,
  storageFailure,
  type StorageFailure,
} from './driverErrors.js';
export { binaryCollation, comparesPadded, concatSql, hasRowLocks, likeEscapeClause } from './dialectSql.js';
export { nowTimestamp } from './timestamps.js';
export { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './queryTimeouts.js';
export { preparedQueryRunner, type PreparedQueryRunner } from './preparedQueryRunner.js';
