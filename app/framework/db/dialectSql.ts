/**
 * The few pieces of SQL text that differ between the dialects, for the callers that write raw
 * SQL (search criteria, the db queue, row locks), so no dialect branch lives outside db/.
 */
import type { Dialect } from './DatabaseSettings.js';

/** A collation that compares bytes (`''` on SQLite, whose default already does). */
export function binaryCollation(dialect: Dialect): string {
  if (dialect === 'mysql') return ' COLLATE utf8mb4_bin';
  if (dialect === 'postgres') return ' COLLATE "C"';
  return '';
}

/**
 * MySQL's binary collation still pads (`'a' = 'a '`): there, equality and order compare bytes
 * with `CAST(... AS BINARY)` instead of a collation.
 */
export function comparesPadded(dialect: Dialect): boolean {
  return dialect === 'mysql';
}

/** MySQL and PostgreSQL escape LIKE wildcards with `\` by default; SQLite only when told. */
export function likeEscapeClause(dialect: Dialect): string {
  return dialect === 'mysql' ? '' : " ESCAPE '\\'";
}

/** String concatenation of SQL expressions: `CONCAT(a, b)` on MySQL, `(a || b)` elsewhere. */
export function concatSql(dialect: Dialect, ...parts: string[]): string {
  return dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : `(${parts.join(' || ')})`;
}

/** Whether `SELECT ... FOR UPDATE` locks rows; SQLite has no row locks (its single writer serialises). */
export function hasRowLocks(dialect: Dialect): boolean {
  return dialect !== 'sqlite';
}
