import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { requestContext, GUEST, ADMIN_STORE } from '../../../app/framework/context/RequestContext.js';
import { ConnectionProvider } from '../../../app/framework/db/ConnectionProvider.js';
import { isUniqueViolation, parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { PreparedInsert, preparedQuery } from '../../../app/framework/db/PreparedQuery.js';
import { UnitOfWork } from '../../../app/framework/db/UnitOfWork.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

interface Row {
  k: string;
  n: number;
  note: string | null;
}

const ALL = preparedQuery<{ min: number }, Row[]>((db, p) =>
  db('pq').where('n', '>=', p('min')).orderBy('k').select('k', 'n', 'note'),
);
const ONE = preparedQuery<{ k: string }, Row | undefined>((db, p) =>
  db('pq')
    .where({ k: p('k') })
    .first('k', 'n', 'note'),
);
const SET_NOTE = preparedQuery<{ k: string; note: string | null }, number>((db, p) =>
  db('pq')
    .where({ k: p('k') })
    .update({ note: p('note') }),
);
const REMOVE = preparedQuery<{ min: number }, number>((db, p) => db('pq').where('n', '>=', p('min')).del());
const INSERT = new PreparedInsert<Row>('pq', ['k', 'n', 'note']);

describe('ConnectionProvider.run: prepared queries on the real database', () => {
  let database: TestDatabase;
  let knex: Knex;
  let connection: ConnectionProvider;
  let unitOfWork: UnitOfWork;
  before(async () => {
    database = await createTestDatabase();
    const settings = parseDatabaseUrl(database.url);
    knex = knexFactory(settings.config);
    connection = new ConnectionProvider(knex, settings.dialect);
    unitOfWork = new UnitOfWork(knex);
    await knex.schema.createTable('pq', (table) => {
      table.string('k', 20).primary();
      table.integer('n').notNullable();
      table.string('note', 50).nullable();
    });
  });
  beforeEach(async () => knex('pq').del());
  after(async () => {
    await knex?.destroy();
    await database?.release();
  });

  const inRequest = <R>(fn: () => Promise<R>): Promise<R> =>
    requestContext.run({ requestId: 't', store: ADMIN_STORE, caller: GUEST }, fn);
  const stored = async () => (await knex('pq').orderBy('k').select('k', 'n', 'note')) as Row[];

  it('should answer as the query builder does: rows, the first row or undefined, rows changed', async () => {
    expect(
      await connection.run(INSERT.forRows(3), [
        { k: 'a', n: 1, note: null },
        { k: 'b', n: 2, note: 'x' },
        { k: 'c', n: 3, note: null },
      ]),
    ).to.equal(3);
    expect(await connection.run(ALL, { min: 2 })).to.deep.equal(
      await knex('pq').where('n', '>=', 2).orderBy('k').select('k', 'n', 'note'),
    );
    expect(await connection.run(ONE, { k: 'b' })).to.deep.equal({ k: 'b', n: 2, note: 'x' });
    expect(await connection.run(ONE, { k: 'zz' })).to.equal(undefined);
    expect(await connection.run(SET_NOTE, { k: 'a', note: 'set' })).to.equal(1);
    expect(await connection.run(SET_NOTE, { k: 'none', note: 'set' })).to.equal(0);
    expect(await connection.run(REMOVE, { min: 3 })).to.equal(1);
    expect(await stored()).to.deep.equal([
      { k: 'a', n: 1, note: 'set' },
      { k: 'b', n: 2, note: 'x' },
    ]);
  });

  it("should write inside the request's unit of work: a failure later in it undoes the prepared writes", async () => {
    await inRequest(() => unitOfWork.run(() => connection.run(INSERT.forRows(1), [{ k: 'kept', n: 1, note: null }])));
    let thrown: unknown;
    try {
      await inRequest(() =>
        unitOfWork.run(async () => {
          await connection.run(INSERT.forRows(1), [{ k: 'lost', n: 2, note: null }]);
          await connection.run(SET_NOTE, { k: 'kept', note: 'lost too' });
          // The unit of work reads its own writes.
          expect(await connection.run(ONE, { k: 'lost' })).to.deep.equal({ k: 'lost', n: 2, note: null });
          throw new Error('after the writes');
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).to.equal('after the writes');
    expect(await stored()).to.deep.equal([{ k: 'kept', n: 1, note: null }]);
  });

  it("runOutside should write on the pool, never in the request's unit of work: a rollback there keeps it", async () => {
    let outside: Promise<number> | undefined;
    let thrown: unknown;
    try {
      await inRequest(() =>
        unitOfWork.run(async () => {
          await connection.run(INSERT.forRows(1), [{ k: 'inside', n: 1, note: null }]);
          // Not awaited here: on SQLite the pool's one connection is the unit of work's until it ends.
          outside = connection.runOutside(INSERT.forRows(1), [{ k: 'outside', n: 2, note: null }]);
          outside.catch(() => undefined);
          throw new Error('rolled back');
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).to.equal('rolled back');
    expect(await outside).to.equal(1);
    expect(await stored()).to.deep.equal([{ k: 'outside', n: 2, note: null }]);
  });

  it("should not read another request's uncommitted writes, and wait for them where the database serialises", async () => {
    await connection.run(INSERT.forRows(1), [{ k: 'a', n: 1, note: 'before' }]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const writer = inRequest(() =>
      unitOfWork.run(async () => {
        await connection.run(SET_NOTE, { k: 'a', note: 'after' });
        wrote();
        await gate;
      }),
    );
    await written;
    const read = inRequest(() => connection.run(ONE, { k: 'a' }));
    // Outside the writer's transaction: 'before' where readers do not wait (MySQL, PostgreSQL),
    // 'after' only once committed where they queue for the one connection (SQLite).
    // How long to wait for it: on SQLite, a moment shows it queued; elsewhere it must answer, and a
    // loaded machine (a PostgreSQL read taking over 50 ms at load 9) must not pass for waiting.
    const patience = connection.dialect === 'sqlite' ? 50 : 10_000;
    const early = await Promise.race([read, new Promise((resolve) => setTimeout(() => resolve('waiting'), patience))]);
    if (connection.dialect === 'sqlite') expect(early).to.equal('waiting');
    else expect(early).to.deep.equal({ k: 'a', n: 1, note: 'before' });
    release();
    await writer;
    expect(await connection.run(ONE, { k: 'a' })).to.deep.equal({ k: 'a', n: 1, note: 'after' });
  });

  it('should keep a named statement per connection on PostgreSQL, parsed once and reused', async function () {
    if (connection.dialect !== 'postgres') this.skip();
    await connection.run(INSERT.forRows(1), [{ k: 'p', n: 1, note: null }]);
    const prepared = await inRequest(() =>
      unitOfWork.run(async () => {
        await connection.run(ONE, { k: 'p' });
        await connection.run(ONE, { k: 'p' });
        const db = requestContext.current()!.transaction!;
        return (await db.raw('select name, statement from pg_prepared_statements')).rows as {
          name: string;
          statement: string;
        }[];
      }),
    );
    const mine = prepared.filter((row) => row.statement === ONE.compiledFor(knex).nativeSql);
    expect(mine).to.have.length(1);
    expect(mine[0]!.name).to.match(/^pq_[0-9a-f]{40}$/);
  });

  it('should go on answering after a migration adds a column to a table it reads', async () => {
    await connection.run(INSERT.forRows(1), [{ k: 'm', n: 1, note: null }]);
    expect(await connection.run(ONE, { k: 'm' })).to.deep.equal({ k: 'm', n: 1, note: null });
    await knex.schema.alterTable('pq', (table) => table.string('added', 10).nullable());
    try {
      expect(await connection.run(ONE, { k: 'm' })).to.deep.equal({ k: 'm', n: 1, note: null });
      expect(await connection.run(ALL, { min: 0 })).to.deep.equal([{ k: 'm', n: 1, note: null }]);
    } finally {
      await knex.schema.alterTable('pq', (table) => table.dropColumn('added'));
    }
  });

  it("should report a driver's error as the driver does, so its class is still recognised", async () => {
    await connection.run(INSERT.forRows(1), [{ k: 'dup', n: 1, note: null }]);
    let thrown: unknown;
    try {
      await connection.run(INSERT.forRows(1), [{ k: 'dup', n: 2, note: null }]);
    } catch (error) {
      thrown = error;
    }
    expect(isUniqueViolation(thrown)).to.equal(true);
  });
});
