import { expect } from 'chai';
import Database from 'better-sqlite3';
import { StatementCounter } from '../../bench/lib/statementCounter.js';

describe('bench: StatementCounter', () => {
  it('counts each statement run at the driver by its first words and, when timed, the time inside the call', () => {
    const counter = new StatementCounter(true, 2, true).install();
    const db = new Database(':memory:');
    try {
      db.prepare('create table t (n integer)').run();
      const insert = db.prepare('insert into t values (?)');
      for (let n = 0; n < 3; n++) insert.run(n);
      expect(db.prepare('select count(*) as c from t').get()).to.deep.equal({ c: 3 });
    } finally {
      db.close();
      counter.uninstall();
    }
    expect(counter.count).to.equal(5);
    expect(Object.fromEntries(counter.sql)).to.deep.equal({
      'create table': 1,
      'insert into': 3,
      'select count(*)': 1,
    });
    expect([...counter.ns.keys()]).to.deep.equal([...counter.sql.keys()]);
    for (const ns of counter.ns.values()) expect(ns).to.be.greaterThan(0);
  });

  it('records no time unless asked', () => {
    const counter = new StatementCounter().install();
    const db = new Database(':memory:');
    try {
      db.prepare('select 1').get();
    } finally {
      db.close();
      counter.uninstall();
    }
    expect(counter.count).to.equal(1);
    expect(counter.ns.size).to.equal(0);
  });
});
