/**
 * One savepoint set again before each unit of work of a batch (the operation consumer's batches:
 * app/framework/webapi-async/OperationConsumer.ts), in as few statements as each database allows
 * (one per unit, where withSavepoint() takes two): the savepoint of the unit before is not
 * released on its own, since the next one replaces it (MySQL/MariaDB replace a savepoint of the
 * same name; PostgreSQL gets `RELEASE ...; SAVEPOINT ...` as one simple query, one round trip) and
 * COMMIT releases the last; on SQLite the statements run on the unit of work's connection
 * directly, without knex. A failed unit is rolled back to it, which keeps it.
 */
import type { Knex } from 'knex';
import { heldSqliteConnection } from './sqlitePreparedRun.js';
import { SavepointLostError } from './UnitOfWork.js';

interface PgQueryable {
  query(sql: string): Promise<unknown>;
}

export class BatchSavepoint {
  private open = false;
  private readonly driver: 'sqlite' | 'postgres' | 'other';

  /** `trx`: the batch's transaction (the unit of work's, from the request context). */
  constructor(
    private readonly trx: Knex,
    private readonly name = 'batch_operation',
  ) {
    const client = (trx.client as { config?: { client?: unknown } }).config?.client;
    this.driver =
      client === 'better-sqlite3' && heldSqliteConnection(trx) ? 'sqlite' : client === 'pg' ? 'postgres' : 'other';
  }

  /** Before a unit: from here, its writes alone can be rolled back. */
  async set(): Promise<void> {
    const name = this.name;
    const release = this.open;
    this.open = true;
    switch (this.driver) {
      case 'sqlite': {
        const conn = heldSqliteConnection(this.trx)!;
        if (release) conn.prepare(`RELEASE SAVEPOINT ${name}`).run([]);
        conn.prepare(`SAVEPOINT ${name}`).run([]);
        return;
      }
      case 'postgres':
        await this.query(release ? `RELEASE SAVEPOINT ${name}; SAVEPOINT ${name}` : `SAVEPOINT ${name}`);
        return;
      default:
        await this.trx.raw(`SAVEPOINT ${name}`); // replaces the unit before's
    }
  }

  /** After a failed unit: its writes are undone; the transaction goes on. Throws SavepointLostError when it cannot. */
  async rollBack(): Promise<void> {
    const sql = `ROLLBACK TO SAVEPOINT ${this.name}`;
    try {
      if (this.driver === 'sqlite') heldSqliteConnection(this.trx)!.prepare(sql).run([]);
      else if (this.driver === 'postgres') await this.query(sql);
      else await this.trx.raw(sql);
    } catch (error) {
      throw new SavepointLostError(error);
    }
  }

  /** On the transaction's own node-postgres connection, as a simple query (several statements, one round trip). */
  private async query(sql: string): Promise<void> {
    const client = this.trx.client as unknown as {
      acquireConnection(): Promise<PgQueryable>;
      releaseConnection(conn: PgQueryable): Promise<unknown>;
    };
    const conn = await client.acquireConnection();
    try {
      await conn.query(sql);
    } finally {
      await client.releaseConnection(conn);
    }
  }
}
