import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl, preparedQueryRunner } from '../../../app/framework/db/dialect.js';
import { preparedQuery, type PreparedQuery } from '../../../app/framework/db/PreparedQuery.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

const ROWS = preparedQuery<{ min: number }, unknown>((db, p) =>
  db('pr').where('n', '>=', p('min')).orderBy('n').select('n'),
);
const FIRST = preparedQuery<{ n: number }, unknown>((db, p) => db('pr').where('n', p('n')).first('n'));
const BUMP = preparedQuery<{ min: number }, unknown>((db, p) =>
  db('pr').where('n', '>=', p('min')).update({ note: 'bumped' }),
);
const DROP = preparedQuery<{ n: number }, unknown>((db, p) => db('pr').where('n', p('n')).del());

describe("preparedQueryRunner: each driver's way of running a prepared query", () => {
  let database: TestDatabase;
  let knex: Knex;
  before(async () => {
    database = await createTestDatabase();
    const settings = parseDatabaseUrl(database.url);
    knex = knexFactory(settings.config);
    await knex.schema.createTable('pr', (table) => {
      table.integer('n').primary();
      table.string('note', 20).nullable();
    });
  });
  after(async () => {
    await knex?.destroy();
    await database?.release();
  });

  const runner = () => preparedQueryRunner(knex, parseDatabaseUrl(database.url).dialect);
  const run = <V>(db: Knex | undefined, query: PreparedQuery<V, unknown>, input: V) => {
    const compiled = query.compiledFor(knex);
    return runner().run(compiled, compiled.values(input), db);
  };

  it('should answer as the builder does, outside a transaction and inside one knex opened itself', async () => {
    for (const inTransaction of [false, true]) {
      await knex('pr').del();
      await knex('pr').insert([{ n: 1 }, { n: 2 }, { n: 3 }]);
      const answers = await (inTransaction
        ? knex.transaction(async (trx) => [
            await run(trx, ROWS, { min: 2 }),
            await run(trx, FIRST, { n: 3 }),
            await run(trx, FIRST, { n: 9 }),
            await run(trx, BUMP, { min: 2 }),
            await run(trx, DROP, { n: 1 }),
          ])
        : Promise.all([
            run(undefined, ROWS, { min: 2 }),
            run(undefined, FIRST, { n: 3 }),
            run(undefined, FIRST, { n: 9 }),
          ]).then(async (reads) => [
            ...reads,
            await run(undefined, BUMP, { min: 2 }),
            await run(undefined, DROP, { n: 1 }),
          ]));
      expect(answers, inTransaction ? 'in a transaction' : 'outside').to.deep.equal([
        [{ n: 2 }, { n: 3 }],
        { n: 3 },
        undefined,
        2,
        1,
      ]);
    }
  });
});
