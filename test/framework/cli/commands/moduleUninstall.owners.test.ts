/**
 * Issue 25, point 7: knex_migrations records migration names only. A module shipping a migration
 * named as another module's (the fixture Clinic_Impostor ships Dispensary_Webhooks'
 * `20261125100000_webhooks_create_subscription`) is a start-up error naming both files, whether it
 * is enabled or only installed; `module:uninstall --remove-data` refuses it the same way, and rolls
 * back only migrations the owner table records as that module's. And point 8's last item:
 * `module:uninstall __proto__` (or any inherited property name) is an unknown module.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { DIST_ROOT, PROJECT_ROOT } from '../../../../app/bootstrap/config/paths.js';
import { runCli } from '../../../../app/cli/Cli.js';
import { parseDatabaseUrl } from '../../../../app/framework/db/dialect.js';
import { appliedModuleMigrations, rollBackModule } from '../../../../app/framework/db/ModuleDataRemover.js';
import { discoverModules } from '../../../../app/framework/module/ModuleLoader.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { moduleConfigFor } from '../../../support/modules.js';
import { ModuleTree } from '../../support/moduleTree.js';

const PROJECT_MODULES = { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') };
const SHARED = '20261125100000_webhooks_create_subscription';
const WEBHOOKS_FILE = path.join(DIST_ROOT, 'modules', 'Dispensary', 'Webhooks', 'migrations', `${SHARED}.js`);

describe('module:uninstall and start-up: migrations belong to one module', function () {
  this.timeout(60_000);
  let tree: ModuleTree;
  let database: TestDatabase;
  let db: Knex;

  beforeEach(async () => {
    tree = ModuleTree.create('lifecycle');
    writeFileSync(tree.configFile, JSON.stringify({ modules: moduleConfigFor() }));
    database = await createTestDatabase();
    db = knexFactory({ ...parseDatabaseUrl(database.url).config, pool: { min: 0, max: 1 } });
  });
  afterEach(async () => {
    await db.destroy();
    await database.release();
    tree.remove();
  });

  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['node', 'cli', ...argv],
      { out: (line) => out.push(...line.split('\n')), err: (line) => err.push(...line.split('\n')) },
      {
        moduleSources: [PROJECT_MODULES, ...tree.sources()],
        moduleConfigFile: tree.configFile,
        databaseUrl: database.url,
      },
    );
    return { code, out, err };
  };
  const applied = async () =>
    ((await db('knex_migrations').orderBy('id').select('name')) as { name: string }[]).map((row) => row.name);
  /** The impostor in the module folder, enabled or (by default) disabled. */
  const addImpostor = (enabled = false) => {
    tree.fixtureModule('lifecycle', 'Clinic_Impostor', { sequence: ['Dispensary_Store'] });
    writeFileSync(tree.configFile, JSON.stringify({ modules: { ...moduleConfigFor(), Clinic_Impostor: enabled } }));
  };
  const impostorFile = () => path.join(tree.codeDir, 'Clinic', 'Impostor', 'migrations', `${SHARED}.js`);
  const expectBothFilesNamed = (lines: string[]) => {
    const text = lines.join('\n');
    expect(text).to.include(`Migration name "${SHARED}" is used by both`);
    expect(text).to.include(WEBHOOKS_FILE);
    expect(text).to.include(impostorFile());
  };

  for (const enabled of [false, true]) {
    it(`should stop setup:upgrade naming both files when an ${enabled ? 'enabled' : 'installed but disabled'} module ships a migration name Webhooks has, and migrate nothing`, async () => {
      addImpostor(enabled);
      const run = await cli('setup:upgrade');
      expect(run.code).not.to.equal(0);
      expectBothFilesNamed(run.err);
      expect(await db.schema.hasTable('knex_migrations')).to.equal(false);
    });
  }

  it("should refuse module:uninstall --remove-data of such a module naming both files, and keep Webhooks' migration and table", async () => {
    const upgraded = await cli('setup:upgrade');
    expect(upgraded.code, upgraded.err.join('\n')).to.equal(0);
    addImpostor();
    const run = await cli('module:uninstall', '--remove-data', 'Clinic_Impostor');
    expect(run.code).not.to.equal(0);
    expectBothFilesNamed(run.err);
    expect(await applied()).to.include(SHARED);
    expect(await db.schema.hasTable('webhook_subscription')).to.equal(true);
  });

  it("should roll back only migrations recorded as the module's own: another module's of the same name stays", async () => {
    const upgraded = await cli('setup:upgrade');
    expect(upgraded.code, upgraded.err.join('\n')).to.equal(0);
    expect(await db('setup_module_migration').where({ migration: SHARED }).first('module')).to.deep.equal({
      module: 'Dispensary_Webhooks',
    });
    addImpostor();
    const impostor = discoverModules(tree.sources()).find((module) => module.name === 'Clinic_Impostor')!;
    expect(await appliedModuleMigrations(db, impostor)).to.deep.equal([]);
    expect(await rollBackModule(db, parseDatabaseUrl(database.url).dialect, impostor)).to.deep.equal([]);
    expect(await applied()).to.include(SHARED);
    expect(await db.schema.hasTable('webhook_subscription')).to.equal(true);
  });

  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`should answer "Unknown module" for module:uninstall ${name}, and change nothing`, async () => {
      const upgraded = await cli('setup:upgrade');
      expect(upgraded.code, upgraded.err.join('\n')).to.equal(0);
      const before = JSON.stringify(moduleConfigFor());
      const run = await cli('module:uninstall', name);
      expect(run.code).not.to.equal(0);
      expect(run.err.join('\n')).to.include(`Unknown module(s): ${name}`);
      expect(run.out.join('\n')).not.to.include('no longer listed');
      const after = (JSON.parse(readFileSync(tree.configFile, 'utf8')) as { modules: unknown }).modules;
      expect(JSON.stringify(after)).to.equal(before);
    });
  }
});
