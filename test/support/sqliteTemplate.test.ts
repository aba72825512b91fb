/**
 * TestApp.start() on SQLite starts from a template of its modules' migrated database
 * (test/support/sqliteTemplate.ts): a copy of what the migrations wrote, never a database of other
 * modules or of other migrations.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { ModuleTree } from '../framework/support/moduleTree.js';
import { TestApp } from './testApp.js';

const MIGRATION = (table: string) =>
  `export async function up(knex) { await knex.schema.createTable('${table}', (t) => { t.increments('id'); }); }\n` +
  `export async function down(knex) { await knex.schema.dropTable('${table}'); }\n`;

describe('TestApp.start on a SQLite template (test/support/sqliteTemplate.ts)', function () {
  const started: TestApp[] = [];
  const start = async (...args: Parameters<typeof TestApp.start>) => {
    const t = await TestApp.start(...args);
    started.push(t);
    return t;
  };
  const applied = (t: TestApp) =>
    t.app.knex('knex_migrations').orderBy('id').select('name', 'batch', 'migration_time') as Promise<unknown[]>;
  const tables = async (t: TestApp) =>
    ((await t.app.knex('sqlite_master').where('type', 'table').orderBy('name').pluck('name')) as string[]).filter(
      (name) => !name.startsWith('sqlite_'),
    );

  before(function () {
    if (process.env.TEST_DATABASE_URL && !process.env.TEST_DATABASE_URL.startsWith('sqlite:')) this.skip();
  });
  afterEach(async () => {
    for (const t of started.splice(0)) await t.stop();
  });

  it('should start an app of the same modules from a copy of the migrated file: the same tables, the same migrations with the times they were first applied at', async () => {
    const first = await start();
    const second = await start();
    expect(second.databaseUrl).to.not.equal(first.databaseUrl);
    expect(await tables(second)).to.deep.equal(await tables(first));
    expect((await applied(second)).length).to.be.greaterThan(10);
    // Migrated again, the second would record later times; a copy keeps the first's.
    expect(await applied(second)).to.deep.equal(await applied(first));
    // Each has a file of its own.
    await first.app.knex('dispensary_patient').insert({
      store_id: 1,
      firstname: 'A',
      lastname: 'B',
      email: 'a@example.com',
      email_key: 'a@example.com',
      created_at: '2026-01-01 00:00:00',
      updated_at: '2026-01-01 00:00:00',
    });
    expect(await second.app.knex('dispensary_patient').count({ n: '*' }).first()).to.deep.equal({ n: 0 });
  });

  describe('with modules of a tree of its own', () => {
    let tree: ModuleTree;
    beforeEach(() => {
      tree = ModuleTree.create();
      tree
        .module('Fixture_Ledger')
        .file('Fixture_Ledger', 'migrations/20260101000000_ledger_a.js', MIGRATION('ledger_a'))
        .module('Fixture_Other')
        .file('Fixture_Other', 'migrations/20260101000001_other_a.js', MIGRATION('other_a'));
    });
    afterEach(() => tree.remove());

    it('should not start an app from the template of another set of modules', async () => {
      expect(await tables(await start(tree.options('webapi_rest')))).to.include.members(['ledger_a', 'other_a']);
      tree.setEnabled('Fixture_Other', false);
      const without = await tables(await start(tree.options('webapi_rest')));
      expect(without).to.include('ledger_a');
      expect(without).to.not.include('other_a');
    });

    it('should migrate afresh when an enabled module has other migrations', async () => {
      tree.file('Fixture_Ledger', 'migrations/20260102000000_ledger_b.js', MIGRATION('ledger_b'));
      expect(await tables(await start(tree.options('webapi_rest')))).to.include.members(['ledger_a', 'ledger_b']);
      rmSync(tree.path('Fixture_Ledger', 'migrations/20260102000000_ledger_b.js'));
      const fewer = await tables(await start(tree.options('webapi_rest')));
      expect(fewer).to.include('ledger_a');
      expect(fewer).to.not.include('ledger_b');
    });
  });
});
