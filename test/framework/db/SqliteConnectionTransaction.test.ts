import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { SqliteConnectionTransaction } from '../../../app/framework/db/SqliteConnectionTransaction.js';

describe('SqliteConnectionTransaction: the SQLite unit of work on the one pooled connection', () => {
  let knex: Knex;
  let tx: SqliteConnectionTransaction;
  beforeEach(async () => {
    knex = knexFactory(parseDatabaseUrl('sqlite::memory:').config);
    await knex.schema.createTable('t', (table) => table.string('v'));
    tx = new SqliteConnectionTransaction(knex);
  });
  afterEach(async () => knex.destroy());
  const rejection = async (promise: PromiseLike<unknown>): Promise<Error> => {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a rejection');
  };
  const values = async () => ((await knex('t').orderBy('v')) as { v: string }[]).map((r) => r.v);

  it('should apply to a one-connection better-sqlite3 knex only', () => {
    expect(SqliteConnectionTransaction.supports(knex)).to.equal(true);
    expect(SqliteConnectionTransaction.supports(knexFactory({ client: 'pg' }))).to.equal(false);
  });

  it('should keep what the work wrote, and nothing of work that threw', async () => {
    await tx.run(async (trx) => trx('t').insert({ v: 'kept' }));
    expect(
      (
        await rejection(
          tx.run(async (trx) => {
            await trx('t').insert({ v: 'lost' });
            throw new Error('boom');
          }),
        )
      ).message,
    ).to.equal('boom');
    expect(await values()).to.deep.equal(['kept']);
  });

  it('should run a nested transaction inside the same one, so a later failure undoes it too', async () => {
    expect(
      (
        await rejection(
          tx.run(async (trx) => {
            await trx.transaction(async (inner) => inner('t').insert({ v: 'nested' }));
            throw new Error('after');
          }),
        )
      ).message,
    ).to.equal('after');
    expect(await values()).to.deep.equal([]);
  });

  it('should queue other queries and units of work behind the open one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = tx.run(async (trx) => {
      await trx('t').insert({ v: 'a' });
      await gate;
    });
    const outside = knex('t').then((rows) => (rows as unknown[]).length);
    const second = tx.run(async (trx) => ((await trx('t')) as unknown[]).length);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await first;
    expect(await outside).to.equal(1);
    expect(await second).to.equal(1);
  });

  it('should refuse a query through the bound knex once the unit of work has ended', async () => {
    let kept!: Knex;
    await tx.run(async (trx) => {
      kept = trx;
    });
    expect((await rejection(kept('t'))).message).to.match(/no longer held/);
  });
});
