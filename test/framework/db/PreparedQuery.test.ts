import { expect } from 'chai';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { PreparedInsert, PreparedQuery, preparedQuery } from '../../../app/framework/db/PreparedQuery.js';

describe('PreparedQuery: a knex query compiled once, run with new values', () => {
  const sqlite = knexFactory(parseDatabaseUrl('sqlite::memory:').config);
  const pg = knexFactory({ client: 'pg' });
  after(async () => {
    await sqlite.destroy();
    await pg.destroy();
  });

  const FIND = preparedQuery<{ hash: string; kind: string }, unknown>((db, p) =>
    db('token')
      .where({ token_hash: p('hash') })
      .andWhere('kind', p('kind'))
      .andWhere('active', true)
      .first(),
  );

  it("should compile to the SQL knex writes for the same builder, with values in knex's order", () => {
    const compiled = FIND.compiledFor(sqlite);
    const direct = sqlite('token')
      .where({ token_hash: 'h1' })
      .andWhere('kind', 'k1')
      .andWhere('active', true)
      .first()
      .toSQL();
    expect(compiled.sql).to.equal(direct.sql);
    expect(compiled.method).to.equal('first');
    expect(compiled.values({ hash: 'h1', kind: 'k1' })).to.deep.equal(direct.bindings);
    expect(compiled.values({ hash: 'h2', kind: 'k2' })).to.deep.equal(['h2', 'k2', true, 1]);
  });

  it("should compile once per client, in each client's dialect", () => {
    expect(FIND.compiledFor(sqlite)).to.equal(FIND.compiledFor(sqlite));
    expect(FIND.compiledFor(pg).sql).to.equal(
      'select * from "token" where "token_hash" = ? and "kind" = ? and "active" = ? limit ?',
    );
    expect(FIND.compiledFor(sqlite).sql).to.equal(
      'select * from `token` where `token_hash` = ? and `kind` = ? and `active` = ? limit ?',
    );
  });

  it('should refuse a run without a value rather than bind undefined', () => {
    expect(() => FIND.compiledFor(sqlite).values({ hash: 'h' } as never)).to.throw(/without a value for placeholder 1/);
  });

  it('should refuse, at compile time, a value knex writes into the SQL text or a query that is not a select or write', () => {
    const inText = preparedQuery<{ t: string }, unknown>((db, p) =>
      db.select(db.raw(`'${p('t') as string}'`)).from('x'),
    );
    expect(() => inText.compiledFor(sqlite)).to.throw(/into the SQL/);
    const dropped = new PreparedQuery<{ a: string }, unknown>((db, value) => {
      value((input) => input.a);
      return db('x').select('a');
    });
    expect(() => dropped.compiledFor(sqlite)).to.throw(/not bound by knex/);
    const truncate = preparedQuery<object, unknown>((db) => db('x').truncate());
    expect(() => truncate.compiledFor(sqlite)).to.throw(/must select, insert, update or delete/);
  });

  it('should compile a multi-row insert once per row count, naming every column of every row', () => {
    const insert = new PreparedInsert<{ a: string; b: number | null }>('t', ['a', 'b'], (q) =>
      q.onConflict(['a']).ignore(),
    );
    expect(insert.forRows(2)).to.equal(insert.forRows(2));
    const two = insert.forRows(2).compiledFor(sqlite);
    expect(two.method).to.equal('insert');
    expect(two.sql).to.equal(
      sqlite('t')
        .insert([
          { a: 'x', b: 1 },
          { a: 'y', b: 2 },
        ])
        .onConflict(['a'])
        .ignore()
        .toSQL().sql,
    );
    // A missing optional column is bound as NULL, as knex writes it on SQLite.
    expect(two.values([{ a: 'x', b: 1 }, { a: 'y' } as never])).to.deep.equal(['x', 1, 'y', null]);
  });
});
