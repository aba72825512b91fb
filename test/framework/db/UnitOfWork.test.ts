import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { ADMIN_STORE, GUEST, requestContext } from '../../../app/framework/context/RequestContext.js';
import { parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { afterCommit, UnitOfWork } from '../../../app/framework/db/UnitOfWork.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

describe('UnitOfWork: afterCommit()', () => {
  let database: TestDatabase;
  let knex: Knex;
  let unitOfWork: UnitOfWork;
  before(async () => {
    database = await createTestDatabase();
    knex = knexFactory(parseDatabaseUrl(database.url).config);
    unitOfWork = new UnitOfWork(knex);
  });
  after(async () => {
    await knex?.destroy();
    await database?.release();
  });

  const inRequest = <R>(fn: () => Promise<R>): Promise<R> =>
    requestContext.run({ requestId: 't', store: ADMIN_STORE, caller: GUEST }, fn);

  it('should run what was queued once the transaction has committed, not before', async () => {
    const seen: string[] = [];
    await inRequest(() =>
      unitOfWork.run(async () => {
        afterCommit(() => seen.push('first'));
        afterCommit(() => seen.push('second'));
        seen.push('work done');
      }),
    );
    expect(seen).to.deep.equal(['work done', 'first', 'second']);
  });

  it('should drop it when the unit of work rolls back', async () => {
    const seen: string[] = [];
    const failure = await inRequest(() =>
      unitOfWork.run(async () => {
        afterCommit(() => seen.push('callback'));
        throw new Error('refused');
      }),
    ).catch((error: unknown) => error);
    expect((failure as Error).message).to.equal('refused');
    expect(seen).to.deep.equal([]);
  });

  it('should keep only what the attempt that committed queued, after a conflict reran the work', async () => {
    const seen: number[] = [];
    let attempt = 0;
    await inRequest(() =>
      unitOfWork.run(async () => {
        const mine = ++attempt;
        afterCommit(() => seen.push(mine));
        if (mine === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      }),
    );
    expect(seen).to.deep.equal([2]);
  });

  it('should not run the committed work again when a callback throws, even an error that looks like a conflict', async () => {
    let runs = 0;
    const failure = await inRequest(() =>
      unitOfWork.run(async () => {
        runs++;
        afterCommit(() => {
          throw Object.assign(new Error('a callback that broke its promise'), { code: '40001' });
        });
      }),
    ).catch((error: unknown) => error);
    expect((failure as Error).message).to.equal('a callback that broke its promise');
    expect(runs).to.equal(1);
  });

  it('should run at once outside a unit of work', () => {
    let ran = false;
    afterCommit(() => (ran = true));
    expect(ran).to.equal(true);
  });
});
