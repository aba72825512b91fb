/**
 * How each driver runs a prepared query (PreparedQuery.ts), part of the dialect layer:
 * - SQLite: better-sqlite3's prepared statement on the connection itself, the unit of work's
 *   held one or, outside a unit of work, the one connection when no transaction holds it
 *   (sqlitePreparedRun.ts);
 * - PostgreSQL: a named statement on knex's connection (the transaction's or one from the pool),
 *   which the server parses and plans once per connection;
 * - MySQL/MariaDB: the compiled SQL through `knex.raw`.
 * Each answers as knex's query builder would: rows, the first row, or the rows changed.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Dialect } from './DatabaseSettings.js';
import type { CompiledStatement, QueryMethod } from './PreparedQuery.js';
import { heldSqliteConnection, runOnSqlite, SqliteIdleConnection } from './sqlitePreparedRun.js';

export interface PreparedQueryRunner {
  /** Runs on `transaction` when one is open (the unit of work's), else outside any. */
  run(compiled: CompiledStatement, values: unknown[], transaction: Knex | undefined): Promise<unknown>;
}

export function preparedQueryRunner(knex: Knex, dialect: Dialect): PreparedQueryRunner {
  const throughRaw = async (compiled: CompiledStatement, values: unknown[], transaction: Knex | undefined) =>
    readRawResult(dialect, compiled.method, await (transaction ?? knex).raw(compiled.sql, values as Knex.RawBinding[]));
  switch (dialect) {
    case 'sqlite': {
      const idle = new SqliteIdleConnection(knex);
      return {
        // Not async (issue 28, 5): on the unit of work's held connection the statement has run
        // when this answers, and one settled promise is all it costs; a throw is a rejection.
        run: (compiled, values, transaction) => {
          try {
            if (!transaction) return idle.run(compiled, values);
            const held = heldSqliteConnection(transaction);
            // A transaction knex opened itself (not the unit of work's): through it.
            return held
              ? Promise.resolve(runOnSqlite(held, compiled, values))
              : throughRaw(compiled, values, transaction);
          } catch (error) {
            return Promise.reject(error);
          }
        },
      };
    }
    case 'postgres':
      return {
        run: async (compiled, values, transaction) =>
          readRawResult('postgres', compiled.method, await runNamedOnPostgres(transaction ?? knex, compiled, values)),
      };
    default:
      return { run: throughRaw };
  }
}

/** knex.raw's answer (or node-postgres's), per driver, read as the query builder would have answered it. */
function readRawResult(dialect: Dialect, method: QueryMethod, raw: unknown): unknown {
  if (dialect === 'postgres') {
    const result = raw as { rows: unknown[]; rowCount: number | null };
    return method === 'select' ? result.rows : method === 'first' ? result.rows[0] : (result.rowCount ?? 0);
  }
  if (dialect === 'mysql') {
    const [rows] = raw as [unknown];
    return method === 'select'
      ? rows
      : method === 'first'
        ? (rows as unknown[])[0]
        : (rows as { affectedRows: number }).affectedRows;
  }
  // SQLite through knex: rows, or better-sqlite3's run result.
  return method === 'select' ? raw : method === 'first' ? (raw as unknown[])[0] : (raw as { changes: number }).changes;
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<unknown>;
}

/** One name per SQL text (its hash): node-postgres sends Parse once per connection and name, then only Bind/Execute. */
const statementNames = new Map<string, string>();

async function runNamedOnPostgres(db: Knex, compiled: CompiledStatement, values: unknown[]): Promise<unknown> {
  let name = statementNames.get(compiled.nativeSql);
  if (!name)
    statementNames.set(
      compiled.nativeSql,
      (name = `pq_${createHash('sha256').update(compiled.nativeSql).digest('hex').slice(0, 40)}`),
    );
  // A transaction's knex answers its own connection here (and releases nothing); the root knex lends one from the pool.
  const client = db.client as unknown as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(conn: PgConnection): Promise<unknown>;
  };
  const conn = await client.acquireConnection();
  try {
    return await conn.query({ name, text: compiled.nativeSql, values });
  } catch (error) {
    // As knex does, the log says which statement failed (its values stay out of the message).
    if (error instanceof Error) error.message = `${compiled.sql} - ${error.message}`;
    throw error;
  } finally {
    await client.releaseConnection(conn);
  }
}
