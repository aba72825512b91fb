/**
 * Unit tests of driverErrors.ts: the classification of driver errors, from real drivers where a
 * test can provoke them, else the documented codes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import {
  isRetryableConflict,
  isUnavailable,
  isUniqueViolation,
  parseDatabaseUrl,
} from '../../../app/framework/db/dialect.js';
import { createTestDatabase } from '../../support/database.js';
import { freePort } from '../../support/serverProcess.js';

interface PreparingConnection {
  prepare(sql: string): unknown;
  pragma(sql: string, options?: { simple: boolean }): unknown;
}

type KnexClient = {
  acquireConnection(): Promise<PreparingConnection>;
  releaseConnection(c: PreparingConnection): Promise<void>;
};

describe('driverErrors', () => {
  it('should call deadlocks, lock wait timeouts, serialization failures and SQLite busy/locked retryable', () => {
    for (const error of [
      { errno: 1213 },
      { errno: 1205 },
      { code: '40001' },
      { code: '40P01' },
      { code: 'SQLITE_BUSY' },
      { code: 'SQLITE_BUSY_SNAPSHOT' },
      { code: 'SQLITE_LOCKED' },
    ]) {
      expect(isRetryableConflict(error), JSON.stringify(error)).to.equal(true);
    }
    for (const error of [
      { code: 'ER_DUP_ENTRY', errno: 1062 },
      { code: '23505' },
      { code: 'ECONNREFUSED' },
      new Error('deadlock'),
      null,
      undefined,
      'SQLITE_BUSY',
    ]) {
      expect(isRetryableConflict(error), String(error)).to.equal(false);
    }
  });

  it('should call a real SQLITE_BUSY from a second connection retryable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dialect-'));
    const url = `sqlite:${path.join(dir, 'db.sqlite')}`;
    const holder = knexFactory(parseDatabaseUrl(url).config);
    const other = knexFactory(parseDatabaseUrl(url).config);
    try {
      await holder.schema.createTable('t', (table) => table.integer('n'));
      await withSqliteConnectionOf(other, async (conn) => {
        conn.pragma('busy_timeout = 0');
        await holder.transaction(async (trx) => {
          await trx('t').insert({ n: 1 });
          let caught: unknown;
          try {
            (conn.prepare('insert into t (n) values (2)') as { run(): unknown }).run();
          } catch (error) {
            caught = error;
          }
          expect(caught, 'the second writer should be refused').to.have.property('code', 'SQLITE_BUSY');
          expect(isRetryableConflict(caught)).to.equal(true);
          expect(isUnavailable(caught)).to.equal(false);
        });
      });
    } finally {
      await holder.destroy();
      await other.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("should recognise a unique index's refusal from the test database's own driver", async () => {
    const database = await createTestDatabase();
    const knex = knexFactory({ ...parseDatabaseUrl(database.url).config, pool: { min: 0, max: 1 } });
    try {
      await knex.schema.createTable('unique_probe', (table) => {
        table.integer('id').primary();
        table.string('code', 16).unique();
      });
      await knex('unique_probe').insert({ id: 1, code: 'a' });
      const refusal = (row: object) =>
        knex('unique_probe')
          .insert(row)
          .then(
            () => null,
            (error: unknown) => error,
          );
      const byIndex = await refusal({ id: 2, code: 'a' });
      const byKey = await refusal({ id: 1, code: 'b' });
      for (const error of [byIndex, byKey]) {
        expect(error, 'the insert should be refused').to.be.instanceOf(Error);
        expect(isUniqueViolation(error), (error as Error).message).to.equal(true);
        expect(isRetryableConflict(error)).to.equal(false);
      }
      const otherError = await knex('no_such_table')
        .insert({ id: 1 })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(otherError).to.be.instanceOf(Error);
      expect(isUniqueViolation(otherError)).to.equal(false);
    } finally {
      await knex.destroy();
      await database.release();
    }
  });

  it('should know the codes of unique violations on each driver and nothing else', () => {
    for (const error of [
      { code: 'ER_DUP_ENTRY' },
      { errno: 1062 },
      { code: '23505' },
      { code: 'SQLITE_CONSTRAINT_UNIQUE' },
      { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    ]) {
      expect(isUniqueViolation(error), JSON.stringify(error)).to.equal(true);
    }
    for (const error of [
      { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' },
      { code: '23503' },
      { errno: 1213 },
      null,
      'ER_DUP_ENTRY',
    ]) {
      expect(isUniqueViolation(error), String(error)).to.equal(false);
    }
  });

  for (const dialect of ['mysql', 'postgres'] as const) {
    it(`should call a refused ${dialect} connection unavailable (a real driver error, on a loopback port nothing listens on)`, async () => {
      const port = await freePort();
      const url =
        dialect === 'mysql' ? `mysql://root@127.0.0.1:${port}/test` : `postgres://postgres@127.0.0.1:${port}/test`;
      // knex would print the failed acquire on the console; the assertion is on the error itself.
      const quiet = { warn: () => {}, error: () => {}, debug: () => {}, deprecate: () => {} };
      const knex = knexFactory({ ...parseDatabaseUrl(url).config, log: quiet });
      try {
        const error = await knex.raw('select 1').then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, 'the query should fail').to.be.instanceOf(Error);
        expect(isUnavailable(error), (error as Error).message).to.equal(true);
        expect(isRetryableConflict(error)).to.equal(false);
      } finally {
        await knex.destroy();
      }
    });
  }

  it('should call lost connections, timeouts and server shutdowns unavailable, and other errors not', () => {
    const unavailable = [
      { code: 'ECONNRESET' },
      { code: 'PROTOCOL_CONNECTION_LOST' },
      { code: 'ER_CON_COUNT_ERROR' },
      { code: '57P01' },
      { code: '53300' },
      { code: '08006' },
      { name: 'KnexTimeoutError', message: 'Knex: Timeout acquiring a connection. The pool is probably full.' },
      { message: 'Connection terminated unexpectedly' },
      { message: "Can't add new command when connection is in closed state" },
      { message: 'timeout exceeded when trying to connect' },
    ];
    for (const error of unavailable) expect(isUnavailable(error), JSON.stringify(error)).to.equal(true);
    for (const error of [
      { code: '23505' },
      { code: 'SQLITE_BUSY' },
      { message: 'syntax error at or near "selec"' },
      new TypeError('x is undefined'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isUnavailable(error), String(error)).to.equal(false);
    }
  });
});

/** The one pooled connection of an existing SQLite knex. */
async function withSqliteConnectionOf(knex: Knex, body: (conn: PreparingConnection) => Promise<void>): Promise<void> {
  const client = knex.client as unknown as KnexClient;
  const conn = await client.acquireConnection();
  try {
    await body(conn);
  } finally {
    await client.releaseConnection(conn);
  }
}
