/**
 * sqliteStatementCache.ts on real better-sqlite3 connections (in memory). That knex's SQLite
 * connections get the cache is databaseUrl.test.ts's part.
 */
import { expect } from 'chai';
import Database, { type Statement } from 'better-sqlite3';
import { cachePreparedStatements, type SqliteConnection } from '../../../app/framework/db/sqliteStatementCache.js';

// The limits of sqliteStatementCache.ts (not exported: nothing else needs them).
const CACHE_SIZE = 200;
const MAX_CACHED_SQL_LENGTH = 32 * 1024;

describe('sqliteStatementCache', () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(':memory:');
    cachePreparedStatements(db as unknown as SqliteConnection);
  });
  afterEach(() => db.close());

  const prepare = (sql: string) => db.prepare(sql) as Statement;

  it('should hand out the same prepared statement for the same SQL text, and another for other text', () => {
    const first = prepare('select 1 as one');
    expect(prepare('select 1 as one')).to.equal(first);
    expect(prepare('select 2 as two')).to.not.equal(first);
    expect(first.get()).to.deep.equal({ one: 1 });
    expect(prepare('select 1 as one').get()).to.deep.equal({ one: 1 });
  });

  it('should keep statements per connection', () => {
    const other = new Database(':memory:');
    try {
      cachePreparedStatements(other as unknown as SqliteConnection);
      expect(other.prepare('select 1')).to.not.equal(prepare('select 1'));
      expect(other.prepare('select 1')).to.equal(other.prepare('select 1'));
    } finally {
      other.close();
    }
  });

  it(`should keep at most ${CACHE_SIZE} statements, dropping the oldest first`, () => {
    const oldest = prepare('select 0');
    const second = prepare('select 1');
    for (let i = 2; i < CACHE_SIZE; i++) prepare(`select ${i}`);
    expect(prepare('select 0'), 'still kept at the limit').to.equal(oldest);
    prepare(`select ${CACHE_SIZE}`);
    expect(prepare('select 1')).to.equal(second);
    const again = prepare('select 0');
    expect(again, 'dropped past the limit').to.not.equal(oldest);
    expect(again.get()).to.deep.equal({ 0: 0 });
  });

  it(`should prepare SQL longer than ${MAX_CACHED_SQL_LENGTH / 1024} KiB each time, and keep SQL of exactly that length`, () => {
    const sized = (length: number) => {
      const head = 'select 1 as one';
      return head + ' '.repeat(length - head.length);
    };
    const long = sized(MAX_CACHED_SQL_LENGTH + 1);
    expect(prepare(long)).to.not.equal(prepare(long));
    expect(prepare(long).get()).to.deep.equal({ one: 1 });
    const limit = sized(MAX_CACHED_SQL_LENGTH);
    expect(prepare(limit)).to.equal(prepare(limit));
  });

  it('should keep a statement working after the schema changes under it', () => {
    db.exec('create table item (sku text primary key)');
    const insert = 'insert into item (sku) values (?)';
    const select = 'select * from item order by sku';
    prepare(insert).run('A');
    const statement = prepare(select);
    expect(statement.all()).to.deep.equal([{ sku: 'A' }]);

    db.exec('alter table item add column qty integer not null default 1');
    prepare(insert).run('B');
    // The same statement object, re-prepared by SQLite itself: `*` now has the new column.
    expect(prepare(select)).to.equal(statement);
    expect(statement.all()).to.deep.equal([
      { sku: 'A', qty: 1 },
      { sku: 'B', qty: 1 },
    ]);

    db.exec('drop table item');
    db.exec('create table item (sku text primary key, note text)');
    prepare(insert).run('C');
    expect(statement.all()).to.deep.equal([{ sku: 'C', note: null }]);
  });
});
