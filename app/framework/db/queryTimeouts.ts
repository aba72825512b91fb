/**
 * How long a request may wait on the database, when the link to it is dead (packets dropped, no
 * reset: the driver would otherwise wait for TCP to give up, many minutes). Three bounds, one per
 * step: getting a connection from the pool (acquire), opening one (connect), and one statement.
 * A statement is bounded twice: by the server (PostgreSQL's statement_timeout, MariaDB's
 * max_statement_time), which cancels a statement that runs too long and answers a clean error on
 * a connection that stays usable, and by the client a little later (pg's query_timeout, mysql2's
 * per-query timeout), which is what ends the wait when no answer can come at all. A connection
 * whose statement timed out on the client is destroyed, never given back to the pool: its answer
 * may still arrive and would be read as the next statement's.
 */
import type { Knex } from 'knex';

export interface DatabaseTimeouts {
  /** DB_CONNECT_TIMEOUT_MS: opening a TCP connection and logging in. */
  readonly connectMs: number;
  /** DB_ACQUIRE_TIMEOUT_MS: waiting for a free pooled connection (knex's acquireConnectionTimeout). */
  readonly acquireMs: number;
  /** DB_STATEMENT_TIMEOUT_MS: one statement, on the server; the client waits CLIENT_GRACE_MS more. 0: unbounded. */
  readonly statementMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5000, acquireMs: 5000, statementMs: 5000 };

/** How much longer than the server's limit the client waits: a slow statement gets the server's clean error first. */
export const CLIENT_GRACE_MS = 1000;

type Callback = (...args: unknown[]) => void;
interface QueryableConnection {
  [method: string]: unknown;
}

/**
 * Wraps a driver connection's query methods so that an error `isClientTimeout` recognises
 * destroys the connection (`dispose`); `addOptions` may add a per-query option first (mysql2).
 */
export function disposeOnClientTimeout(
  conn: QueryableConnection,
  methods: readonly string[],
  isClientTimeout: (error: unknown) => boolean,
  dispose: (error: unknown) => void,
  addOptions: (args: unknown[]) => unknown[] = (args) => args,
): void {
  const check = (error: unknown) => {
    if (isClientTimeout(error)) dispose(error);
  };
  for (const method of methods) {
    const original = conn[method];
    if (typeof original !== 'function') continue;
    conn[method] = function (this: unknown, ...given: unknown[]) {
      const args = addOptions(given);
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as Callback;
        args[last] = (error: unknown, ...rest: unknown[]) => {
          if (error) check(error);
          callback(error, ...rest);
        };
      }
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) result.catch(check);
      return result;
    };
  }
}

/** pg: the server's statement_timeout, the client's query_timeout, and TCP keep-alive on. */
export function pgTimeoutOptions(timeouts: DatabaseTimeouts): Record<string, unknown> {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(timeouts.statementMs > 0
      ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + CLIENT_GRACE_MS }
      : {}),
  };
}

interface PgConnection extends QueryableConnection {
  __knex__disposed?: unknown;
  connection?: { stream?: { destroy(): void } };
}

/** pg's afterCreate: a connection whose query timed out on the client is marked for knex to drop, and closed. */
export function pgAfterCreate(timeouts: DatabaseTimeouts): NonNullable<Knex.PoolConfig['afterCreate']> {
  return (conn: PgConnection, done: (error: Error | null, conn: unknown) => void) => {
    if (timeouts.statementMs > 0) {
      disposeOnClientTimeout(
        conn,
        ['query'],
        (error) => String((error as Error)?.message).endsWith('Query read timeout'),
        (error) => {
          conn.__knex__disposed = error;
          conn.connection?.stream?.destroy();
        },
      );
    }
    done(null, conn);
  };
}

interface MysqlConnection extends QueryableConnection {
  destroy(): void;
  query(sql: string, callback: (error: (Error & { errno?: number }) | null) => void): void;
}

/**
 * mysql2's afterCreate: the server's limit (MariaDB's max_statement_time, in seconds; MySQL's
 * max_execution_time, SELECT only), a per-query client timeout, and the connection destroyed
 * when it fires (knex then finds it closed and drops it).
 */
export function mysqlAfterCreate(timeouts: DatabaseTimeouts): NonNullable<Knex.PoolConfig['afterCreate']> {
  return (conn: MysqlConnection, done: (error: Error | null, conn: unknown) => void) => {
    if (timeouts.statementMs <= 0) return done(null, conn);
    const clientMs = timeouts.statementMs + CLIENT_GRACE_MS;
    conn.query(`SET SESSION max_statement_time = ${timeouts.statementMs / 1000}`, (error) => {
      const finish = () => {
        disposeOnClientTimeout(
          conn,
          ['query', 'execute'],
          (e) => (e as { code?: string })?.code === 'PROTOCOL_SEQUENCE_TIMEOUT',
          () => conn.destroy(),
          (args) => {
            const [first, ...rest] = args;
            if (typeof first === 'string') return [{ sql: first, timeout: clientMs }, ...rest];
            // knex passes a plain object; anything else (a driver's own command object) is left alone.
            if (first?.constructor === Object && (first as { timeout?: number }).timeout === undefined)
              return [{ ...first, timeout: clientMs }, ...rest];
            return args;
          },
        );
        done(null, conn);
      };
      // 1193: unknown variable, so MySQL rather than MariaDB.
      if (error?.errno === 1193) conn.query(`SET SESSION max_execution_time = ${timeouts.statementMs}`, () => finish());
      else if (error) done(error, conn);
      else finish();
    });
  };
}
