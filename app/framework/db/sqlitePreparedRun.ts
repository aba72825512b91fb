/**
 * Prepared queries (PreparedQuery.ts) on better-sqlite3: the statement runs on the connection
 * itself, synchronously, with no knex runner and no pool round trip when none is needed.
 */
import type { Knex } from 'knex';
import type { CompiledStatement } from './PreparedQuery.js';

/** The better-sqlite3 connection, as far as prepared queries use it. */
export interface SqliteRawConnection {
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
  readonly open: boolean;
}

interface SqliteStatement {
  get(values: unknown[]): unknown;
  all(values: unknown[]): unknown[];
  run(values: unknown[]): { changes: number };
}

/** knex's client as far as lending SQLite's one connection goes (its pool queues the borrowers). */
export interface SqlitePoolClient {
  acquireConnection(): Promise<SqliteRawConnection>;
  releaseConnection(conn: SqliteRawConnection): Promise<unknown>;
}

const HELD = Symbol('held SQLite connection');

/** Marks a knex bound to a unit of work's connection (SqliteConnectionTransaction) with how to reach that connection. */
export function markHeldConnection(knex: Knex, held: () => SqliteRawConnection | undefined): void {
  Object.defineProperty(knex, HELD, { value: held });
}

/** The connection a unit of work holds, when `knex` is its bound knex and it is still open. */
export function heldSqliteConnection(knex: Knex): SqliteRawConnection | undefined {
  return (knex as unknown as { [HELD]?: () => SqliteRawConnection | undefined })[HELD]?.();
}

/** Runs the compiled statement; binds values as knex's better-sqlite3 client does (Date as ms, boolean as 0/1). */
export function runOnSqlite(conn: SqliteRawConnection, compiled: CompiledStatement, values: unknown[]): unknown {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value instanceof Date) values[i] = value.valueOf();
    else if (typeof value === 'boolean') values[i] = Number(value);
  }
  try {
    const statement = conn.prepare(compiled.sql);
    switch (compiled.method) {
      case 'first':
        return statement.get(values);
      case 'select':
        return statement.all(values);
      default:
        return statement.run(values).changes;
    }
  } catch (error) {
    // As knex does, the log says which statement failed (its values stay out of the message).
    if (error instanceof Error) error.message = `${compiled.sql} - ${error.message}`;
    throw error;
  }
}

/**
 * Outside a unit of work, a statement may run on SQLite's one connection whenever no transaction
 * is open on it: better-sqlite3 runs it to completion synchronously, so nothing can interleave,
 * and autocommit applies as it would through the pool. While a unit of work holds the connection
 * (a transaction is open), the statement waits for it in the pool's queue like any knex query.
 */
export class SqliteIdleConnection {
  private known?: SqliteRawConnection;

  constructor(private readonly knex: Knex) {}

  async run(compiled: CompiledStatement, values: unknown[]): Promise<unknown> {
    const known = this.known;
    if (known && known.open && !known.inTransaction) return runOnSqlite(known, compiled, values);
    const client = this.knex.client as unknown as SqlitePoolClient;
    const conn = await client.acquireConnection();
    try {
      this.known = conn;
      return runOnSqlite(conn, compiled, values);
    } finally {
      await client.releaseConnection(conn);
    }
  }
}
