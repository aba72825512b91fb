import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { preparedQuery } from '../../../app/framework/db/PreparedQuery.js';
import { SqliteConnectionTransaction } from '../../../app/framework/db/SqliteConnectionTransaction.js';
import {
  runOnSqlite,
  SqliteIdleConnection,
  type SqliteRawConnection,
} from '../../../app/framework/db/sqlitePreparedRun.js';

describe('sqlitePreparedRun: prepared queries on the better-sqlite3 connection itself', () => {
  let knex: Knex;
  beforeEach(async () => {
    knex = knexFactory(parseDatabaseUrl('sqlite::memory:').config);
    await knex.schema.createTable('t', (table) => {
      table.string('v').primary();
      table.integer('n');
    });
  });
  afterEach(async () => knex.destroy());

  const INSERT = preparedQuery<{ v: unknown; n: unknown }, number>((db, p) => db('t').insert({ v: p('v'), n: p('n') }));
  const ALL = preparedQuery<object, { v: string; n: number }[]>((db) => db('t').orderBy('v').select('v', 'n'));
  const connection = async () => {
    const conn = (await knex.client.acquireConnection()) as SqliteRawConnection;
    await knex.client.releaseConnection(conn);
    return conn;
  };

  it('should bind as knex binds for better-sqlite3: a Date as milliseconds, a boolean as 0 or 1', async () => {
    const conn = await connection();
    const at = new Date('2026-01-02T03:04:05Z');
    runOnSqlite(conn, INSERT.compiledFor(knex), INSERT.compiledFor(knex).values({ v: 'a', n: at }));
    runOnSqlite(conn, INSERT.compiledFor(knex), INSERT.compiledFor(knex).values({ v: 'b', n: true }));
    expect(runOnSqlite(conn, ALL.compiledFor(knex), [])).to.deep.equal([
      { v: 'a', n: at.valueOf() },
      { v: 'b', n: 1 },
    ]);
  });

  it("should name the failing statement in the message and keep the driver's code", async () => {
    const conn = await connection();
    const insert = INSERT.compiledFor(knex);
    runOnSqlite(conn, insert, insert.values({ v: 'x', n: 1 }));
    let thrown: (Error & { code?: string }) | undefined;
    try {
      runOnSqlite(conn, insert, insert.values({ v: 'x', n: 2 }));
    } catch (error) {
      thrown = error as Error & { code?: string };
    }
    expect(thrown?.code).to.equal('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(thrown?.message).to.match(/^insert into `t` .* - UNIQUE constraint failed/);
  });

  it('should run outside a transaction at once, and wait in the pool while a unit of work holds the connection', async () => {
    const idle = new SqliteIdleConnection(knex);
    const read = () => idle.run(ALL.compiledFor(knex), []) as Promise<{ v: string }[]>;
    expect(await read()).to.deep.equal([]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const holding = new Promise<void>((resolve) => (inserted = resolve));
    const unit = new SqliteConnectionTransaction(knex).run(async (trx) => {
      await trx('t').insert({ v: 'uncommitted', n: 1 });
      inserted();
      await gate;
    });
    // The unit of work holds the connection (not "10 ms later": a loaded machine may not have started it).
    await holding;
    const waiting = read();
    const early = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('waiting'), 30))]);
    expect(early).to.equal('waiting');
    release();
    await unit;
    expect((await waiting).map((r) => r.v)).to.deep.equal(['uncommitted']);
  });
});
