/**
 * The dialect's SQL pieces, run on the test database (SQLite, or TEST_DATABASE_URL's server):
 * each answers the same on every dialect.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import {
  binaryCollation,
  comparesPadded,
  concatSql,
  hasRowLocks,
  likeEscapeClause,
  parseDatabaseUrl,
  type Dialect,
} from '../../../app/framework/db/dialect.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

describe('dialectSql', () => {
  let database: TestDatabase;
  let knex: Knex;
  let dialect: Dialect;
  before(async () => {
    database = await createTestDatabase();
    const settings = parseDatabaseUrl(database.url);
    dialect = settings.dialect;
    knex = knexFactory(settings.config);
  });
  after(async () => {
    await knex?.destroy();
    await database?.release();
  });

  const value = async (sql: string, bindings: string[] = []): Promise<unknown> => {
    const rows = await knex.select(knex.raw(`${sql} AS v`, bindings));
    return (rows[0] as { v: unknown }).v;
  };

  it('should concatenate expressions', async () => {
    expect(await value(concatSql(dialect, "','", '?', "','"), ['a'])).to.equal(',a,');
  });

  it('should match a LIKE wildcard literally when escaped with a backslash', async () => {
    const matches = async (subject: string) =>
      Number(await value(`CASE WHEN ? LIKE ?${likeEscapeClause(dialect)} THEN 1 ELSE 0 END`, [subject, '50\\%']));
    expect([await matches('50%'), await matches('500')]).to.deep.equal([1, 0]);
  });

  it('should compare bytes: upper and lower case differ, and so do trailing spaces', async () => {
    const equal = async (a: string, b: string) =>
      Number(
        await value(
          comparesPadded(dialect)
            ? 'CASE WHEN CAST(? AS BINARY) = CAST(? AS BINARY) THEN 1 ELSE 0 END'
            : `CASE WHEN ?${binaryCollation(dialect)} = ?${binaryCollation(dialect)} THEN 1 ELSE 0 END`,
          [a, b],
        ),
      );
    expect([await equal('a', 'a'), await equal('a', 'A'), await equal('a', 'a ')]).to.deep.equal([1, 0, 0]);
  });

  it('should say which dialects lock rows with FOR UPDATE', () => {
    expect((['sqlite', 'mysql', 'postgres'] as const).map(hasRowLocks)).to.deep.equal([false, true, true]);
  });
});
