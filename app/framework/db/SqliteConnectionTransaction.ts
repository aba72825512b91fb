import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { markHeldConnection, type SqlitePoolClient, type SqliteRawConnection } from './sqlitePreparedRun.js';

const makeKnex = createRequire(import.meta.url)('knex/lib/knex-builder/make-knex.js') as (client: Knex.Client) => Knex;

/**
 * Performance (issue 12): `knex.transaction()` builds a new knex object per call (its client,
 * transactor, event wiring, ~88 µs on Add Items). SQLite here has ONE pooled connection, so a
 * unit of work can hold that connection from the pool (which queues every other query and unit
 * of work behind it, as knex's transaction did), run BEGIN/COMMIT on it itself, and give the work
 * a knex bound to the held connection that is built once and reused.
 */
export class SqliteConnectionTransaction {
  private held: SqliteRawConnection | undefined;
  private readonly bound: Knex;

  constructor(private readonly knex: Knex) {
    const client = Object.create(knex.client) as Knex.Client & {
      acquireConnection(): Promise<unknown>;
      releaseConnection(conn: unknown): Promise<void>;
    };
    client.acquireConnection = () => {
      if (this.held === undefined)
        return Promise.reject(new Error('The unit of work has ended: its connection is no longer held'));
      return Promise.resolve(this.held);
    };
    client.releaseConnection = () => Promise.resolve();
    this.bound = makeKnex(client);
    // Prepared queries (ConnectionProvider.run) run on the held connection directly.
    markHeldConnection(this.bound, () => this.held);
    // Code written against a knex transaction may open a nested one: run it in the same transaction.
    Object.defineProperty(this.bound, 'transaction', {
      value: async (work?: (trx: Knex) => unknown) => (work ? work(this.bound) : this.bound),
    });
  }

  static supports(knex: Knex): boolean {
    const config = knex.client.config as { client?: unknown; pool?: { max?: number } };
    return config.client === 'better-sqlite3' && config.pool?.max === 1;
  }

  async run<R>(work: (trx: Knex.Transaction) => Promise<R>): Promise<R> {
    const client = this.knex.client as unknown as SqlitePoolClient;
    const conn = await client.acquireConnection();
    try {
      conn.prepare('BEGIN').run([]);
      this.held = conn;
      let result: R;
      try {
        result = await work(this.bound as Knex.Transaction);
      } catch (error) {
        this.held = undefined;
        // SQLite rolls back by itself on SQLITE_FULL or an I/O error.
        if (conn.inTransaction) conn.prepare('ROLLBACK').run([]);
        throw error;
      }
      this.held = undefined;
      try {
        conn.prepare('COMMIT').run([]);
      } catch (error) {
        if (conn.inTransaction) conn.prepare('ROLLBACK').run([]);
        throw error;
      }
      return result;
    } finally {
      this.held = undefined;
      await client.releaseConnection(conn);
    }
  }
}
