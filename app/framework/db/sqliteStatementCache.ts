/** The SQLite connection as better-sqlite3 hands it to knex's pool. */
export interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
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
export function cachePreparedStatements(conn: SqliteConnection): void {
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
