import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { requestContext } from '../context/RequestContext.js';
import type { Dialect } from './dialect.js';
import type { CompiledQuery, PreparedQuery, QueryMethod } from './PreparedQuery.js';
import { heldSqliteConnection, runOnSqlite, SqliteIdleConnection } from './sqlitePreparedRun.js';

/**
 * What repositories ask for a query builder. Inside a request it answers the unit of work's
 * transaction, so everything a request writes commits or rolls back together; outside, the pool.
 */
export class ConnectionProvider {
  private readonly sqlite?: SqliteIdleConnection;

  constructor(
    readonly knex: Knex,
    readonly dialect: Dialect,
  ) {
    if (dialect === 'sqlite') this.sqlite = new SqliteIdleConnection(knex);
  }

  get(): Knex {
    return requestContext.current()?.transaction ?? this.knex;
  }

  /**
   * Runs a prepared query (PreparedQuery.ts) where `get()` would: in the unit of work's
   * transaction when one is open, else outside. On SQLite the statement runs on the connection
   * itself (prepared once, see sqliteStatementCache.ts); elsewhere as SQL through knex.
   */
  async run<V, R>(query: PreparedQuery<V, R>, input: V): Promise<R> {
    const compiled = query.compiledFor(this.knex);
    const values = compiled.values(input);
    const transaction = requestContext.current()?.transaction;
    if (this.sqlite) {
      const held = transaction ? heldSqliteConnection(transaction) : undefined;
      if (held) return runOnSqlite(held, compiled, values) as R;
      if (!transaction) return this.sqlite.run(compiled, values) as Promise<R>;
    }
    if (this.dialect === 'postgres') return readRawResult('postgres', compiled, await runNamedOnPostgres(transaction ?? this.knex, compiled, values)) as R;
    return readRawResult(this.dialect, compiled, await (transaction ?? this.knex).raw(compiled.sql, values as Knex.RawBinding[])) as R;
  }
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<unknown>;
}

const statementNames = new Map<string, string>();

/**
 * A named statement on the connection knex would use (the transaction's, or one from the pool):
 * node-postgres sends Parse once per connection and name, then only Bind/Execute. The name is
 * the SQL's hash, so one text always has one name. Errors are the driver's, as through knex.
 */
async function runNamedOnPostgres(db: Knex, compiled: CompiledQuery<unknown>, values: unknown[]): Promise<unknown> {
  let name = statementNames.get(compiled.nativeSql);
  if (!name) statementNames.set(compiled.nativeSql, (name = `pq_${createHash('sha256').update(compiled.nativeSql).digest('hex').slice(0, 40)}`));
  const client = db.client as unknown as { acquireConnection(): Promise<PgConnection>; releaseConnection(conn: PgConnection): Promise<unknown> };
  const conn = await client.acquireConnection();
  try {
    return await conn.query({ name, text: compiled.nativeSql, values });
  } catch (error) {
    if (error instanceof Error) error.message = `${compiled.sql} - ${error.message}`;
    throw error;
  } finally {
    await client.releaseConnection(conn);
  }
}

/** knex.raw's answer, per driver, read as the query builder would have answered it. */
function readRawResult(dialect: Dialect, compiled: CompiledQuery<unknown>, raw: unknown): unknown {
  const method: QueryMethod = compiled.method;
  if (dialect === 'postgres') {
    const result = raw as { rows: unknown[]; rowCount: number | null };
    return method === 'select' ? result.rows : method === 'first' ? result.rows[0] : (result.rowCount ?? 0);
  }
  if (dialect === 'mysql') {
    const [rows] = raw as [unknown];
    return method === 'select' ? rows : method === 'first' ? (rows as unknown[])[0] : (rows as { affectedRows: number }).affectedRows;
  }
  // SQLite through knex (a transaction knex opened itself): rows, or better-sqlite3's run result.
  return method === 'select' ? raw : method === 'first' ? (raw as unknown[])[0] : (raw as { changes: number }).changes;
}
