/** commands/setupUpgrade.ts (`setup:upgrade`) through the real CLI entry, on Fixture_Shop's migration and a SQLite file. */
import path from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../../../app/framework/db/dialect.js';
import { ModuleTree } from '../../support/moduleTree.js';

const MIGRATION = '20261122990000_fixture_shop_create_order';

describe('setup:upgrade', () => {
  let tree: ModuleTree;
  let databaseUrl: string;
  beforeEach(() => {
    tree = ModuleTree.create('webapi').fixtureModule('webapi', 'Fixture_Shop');
    databaseUrl = `sqlite:${path.join(tree.root, 'db.sqlite')}`;
  });
  afterEach(() => tree.remove());

  it('should apply the pending migrations and name them, then find nothing to do', async () => {
    let result = await tree.cli(['setup:upgrade'], { databaseUrl });
    expect(result.err).to.deep.equal([]);
    expect(result.code).to.equal(0);
    expect(result.out).to.deep.equal(['Applied 1 migration(s):', `  ${MIGRATION}`]);

    const knex = knexFactory(parseDatabaseUrl(databaseUrl).config);
    try {
      expect(await knex.schema.hasTable('fixture_shop_order')).to.equal(true);
    } finally {
      await knex.destroy();
    }

    result = await tree.cli(['setup:upgrade'], { databaseUrl });
    expect(result.code).to.equal(0);
    expect(result.out).to.deep.equal(['Nothing to migrate: the database is up to date.']);
  });
});
