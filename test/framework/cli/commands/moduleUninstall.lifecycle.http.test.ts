/**
 * Issue 17, section 1: a third-party module beside the project's own, switched on, off, removed and
 * back, through the real CLI entry (module:enable, module:disable, module:uninstall,
 * setup:db:status, setup:upgrade) and the real application, on a database of its own (SQLite, or
 * the TEST_DATABASE_URL server). The fixture modules (test/fixtures/lifecycle) sit in a temporary
 * module folder next to the project's modules, with a temporary etc/config.json.
 * Messages follow Magento's AbstractModuleManageCommand, Framework\Module\Status and
 * ModuleUninstallCommand where they fit. From Magento's
 * setup/src/Magento/Setup/Test/Unit/Console/Command/ModuleUninstallCommandTest.php:
 * testExecuteFailedValidation ('one unknown module'), testExecuteFailedDependencies (the first
 * case), testExecuteRemoveData (here the data really goes, and nothing else with it).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import request from 'supertest';
import { Application, type ApplicationOptions } from '../../../../app/bootstrap/Application.js';
import { DIST_ROOT, PROJECT_ROOT } from '../../../../app/bootstrap/config/paths.js';
import { runCli } from '../../../../app/cli/Cli.js';
import { parseDatabaseUrl } from '../../../../app/framework/db/dialect.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { ModuleTree } from '../../support/moduleTree.js';
import { moduleConfigFor } from '../../../support/modules.js';

const PROJECT_MODULES = { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') };
const AUDIT = '20261125084300_clinic_limits_create_audit';
const ADD_STORE = '20261125084310_clinic_limits_audit_add_store';
const BROKEN_FIRST = '20261125090000_clinic_broken_create_first';
const BROKEN_SECOND = '20261125090010_clinic_broken_create_second';
/** Tables of the project's modules that must outlive every step. */
const PROJECT_TABLES = [
  'store',
  'catalog_product',
  'integration_token',
  'dispensary_recommendation',
  'knex_migrations',
];

interface Run {
  code: number;
  out: string[];
  err: string[];
}

describe('module lifecycle: enable, disable, uninstall a third-party module (real CLI, real application)', function () {
  this.timeout(60_000);
  let tree: ModuleTree;
  let database: TestDatabase;
  let db: Knex;
  let options: ApplicationOptions;

  beforeEach(async () => {
    tree = ModuleTree.create('lifecycle');
    tree.fixtureModule('lifecycle', 'Clinic_Limits', { sequence: ['Dispensary_Store'] });
    // The project's own modules as the suite runs them (whatever else sits in modules/), in a file of the test's own.
    writeFileSync(tree.configFile, JSON.stringify({ modules: moduleConfigFor() }));
    database = await createTestDatabase();
    db = knexFactory({ ...parseDatabaseUrl(database.url).config, pool: { min: 0, max: 1 } });
    options = {
      moduleSources: [PROJECT_MODULES, ...tree.sources()],
      moduleConfigFile: tree.configFile,
      databaseUrl: database.url,
    };
  });
  afterEach(async () => {
    await db.destroy();
    await database.release();
    tree.remove();
  });

  const cli = async (...argv: string[]): Promise<Run> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['node', 'cli', ...argv],
      { out: (line) => out.push(...line.split('\n')), err: (line) => err.push(...line.split('\n')) },
      options,
    );
    return { code, out, err };
  };
  const configured = () =>
    (JSON.parse(readFileSync(tree.configFile, 'utf8')) as { modules: Record<string, boolean> }).modules;
  const applied = async () =>
    ((await db('knex_migrations').orderBy('id').select('name')) as { name: string }[]).map((row) => row.name);
  const appliedOf = async (prefix: string) => (await applied()).filter((name) => name.includes(`_${prefix}_`));
  const expectProjectIntact = async (storeCount: number) => {
    for (const table of PROJECT_TABLES) expect(await db.schema.hasTable(table), table).to.equal(true);
    expect(Number((await db('store').count({ n: '*' }))[0]!.n)).to.equal(storeCount);
  };

  it('should migrate it, keep its tables while disabled (start-up and CLI go on, with a warning), remove them with module:uninstall --remove-data, and apply them again from scratch when re-enabled', async () => {
    let run = await cli('setup:upgrade');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.include.members([`  ${AUDIT}`, `  ${ADD_STORE}`]);
    await db('clinic_limits_audit').insert({ sku: 'VIT-D3', requested_qty: 12, store_id: 1 });
    const stores = Number((await db('store').count({ n: '*' }))[0]!.n);
    const projectMigrations = (await applied()).filter((name) => !name.includes('_clinic_'));

    run = await cli('module:disable', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out.slice(0, 3)).to.deep.equal(['The following modules have been disabled:', '- Clinic_Limits', '']);
    expect(run.out).to.include(
      "Their tables and data are kept; 'module:uninstall --remove-data <Module>' removes them.",
    );
    expect(configured().Clinic_Limits).to.equal(false);

    // The service starts, warns naming the module, and serves.
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const app = await Application.create({ ...options, area: 'webapi_rest', logger });
    try {
      const upgrade = await app.setupUpgrade();
      expect(upgrade.migrations).to.deep.equal([]);
      expect(upgrade.kept).to.deep.equal([
        { module: 'Clinic_Limits', state: 'disabled', migrations: [AUDIT, ADD_STORE] },
      ]);
      const warning =
        'Clinic_Limits is disabled; its 2 applied migrations are kept. module:uninstall --remove-data Clinic_Limits removes its tables.';
      expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).to.deep.equal([warning]);
      expect((await request(app.http()).get('/health')).status).to.equal(200);
      // knex's own commands see the kept migrations as applied, not as a corrupt directory.
      const [completed, pending] = (await app.knex.migrate.list({ migrationSource: app.migrationSource() })) as [
        unknown[],
        unknown[],
      ];
      expect([completed.length, pending.length]).to.deep.equal([projectMigrations.length + 2, 0]);
    } finally {
      await app.close();
    }

    // The CLI works and says the same.
    run = await cli('setup:upgrade');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.deep.equal([
      'Nothing to migrate: the database is up to date.',
      'Clinic_Limits is disabled; its 2 applied migrations are kept. module:uninstall --remove-data Clinic_Limits removes its tables.',
    ]);
    expect((await cli('module:status')).out).to.include.members(['Disabled modules:', '  Clinic_Limits']);

    run = await cli('setup:db:status');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out.slice(0, 3)).to.deep.equal([
      'Clinic_Limits (disabled)',
      `  orphaned  ${AUDIT}`,
      `  orphaned  ${ADD_STORE}`,
    ]);
    expect(run.out).to.include('Dispensary_Store (enabled)');
    expect(run.out[run.out.length - 1]).to.equal('All modules are up to date.');

    run = await cli('module:uninstall', 'Clinic_Limits', '--remove-data');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out.slice(0, 3)).to.deep.equal([
      'Removed the data of Clinic_Limits: rolled back 2 migration(s), newest first:',
      `  ${ADD_STORE}`,
      `  ${AUDIT}`,
    ]);
    expect(await db.schema.hasTable('clinic_limits_audit')).to.equal(false);
    expect(await applied()).to.deep.equal(projectMigrations);
    await expectProjectIntact(stores);
    // Its folder is still in the module folder: it stays disabled until the folder goes.
    expect(configured().Clinic_Limits).to.equal(false);
    expect((await cli('setup:upgrade')).out).to.deep.equal(['Nothing to migrate: the database is up to date.']);

    run = await cli('module:enable', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.deep.equal([
      'The following modules have been enabled:',
      '- Clinic_Limits',
      '',
      "To make sure that the enabled modules are properly registered, run 'setup:upgrade'.",
      'A running service loads the change when it restarts.',
    ]);
    run = await cli('setup:db:status');
    expect(run.code).to.equal(2);
    expect(run.out.slice(0, 3)).to.deep.equal([
      'Clinic_Limits (enabled)',
      `  pending   ${AUDIT}`,
      `  pending   ${ADD_STORE}`,
    ]);
    expect(run.out[run.out.length - 1]).to.equal(
      "2 migration(s) pending. Run 'setup:upgrade' to update your DB schema and data.",
    );

    run = await cli('setup:upgrade');
    expect(run.out).to.deep.equal(['Applied 2 migration(s):', `  ${AUDIT}`, `  ${ADD_STORE}`]);
    expect(Number((await db('clinic_limits_audit').count({ n: '*' }))[0]!.n)).to.equal(0);
    await expectProjectIntact(stores);
  });

  it('should keep the tables of a module whose folder is gone, name it, and refuse to roll it back without its code', async () => {
    expect((await cli('setup:upgrade')).code).to.equal(0);
    rmSync(tree.dir('Clinic_Limits'), { recursive: true });

    let run = await cli('setup:upgrade');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.deep.equal([
      'Nothing to migrate: the database is up to date.',
      `Clinic_Limits is not installed (no folder in the module folders); its 2 applied migrations are kept (${AUDIT}, ${ADD_STORE}). Put its folder back and run module:uninstall --remove-data Clinic_Limits to remove its tables.`,
    ]);
    run = await cli('setup:db:status');
    expect(run.out.slice(0, 3)).to.deep.equal([
      'Clinic_Limits (not installed)',
      `  orphaned  ${AUDIT}`,
      `  orphaned  ${ADD_STORE}`,
    ]);

    run = await cli('module:uninstall', '--remove-data', 'Clinic_Limits');
    expect(run.code).to.equal(1);
    expect(run.err.join('\n'))
      .to.contain(
        'Cannot remove the data of Clinic_Limits: its folder is no longer in the module folders, so the down() of its 2 applied migration(s)',
      )
      .and.to.contain('Nothing was changed.');
    expect(await db.schema.hasTable('clinic_limits_audit')).to.equal(true);
    expect(await appliedOf('clinic_limits')).to.deep.equal([AUDIT, ADD_STORE]);

    run = await cli('module:uninstall', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.include(`Its 2 applied migration(s) and their tables are kept (${AUDIT}, ${ADD_STORE}).`);
  });

  it('should refuse to break a <sequence> dependency unless --force, naming both modules, and change nothing', async () => {
    tree.fixtureModule('lifecycle', 'Clinic_LimitsReport', { sequence: ['Clinic_Limits'] });
    const before = readFileSync(tree.configFile, 'utf8');

    let run = await cli('module:disable', 'Clinic_Limits');
    expect(run.code).to.equal(1);
    expect(run.err).to.deep.equal([
      'Error: Unable to change status of modules because of the following constraints:',
      'Cannot disable Clinic_Limits, modules depending on it:',
      'Clinic_LimitsReport: Clinic_LimitsReport->Clinic_Limits',
    ]);
    expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);

    run = await cli('module:uninstall', 'Clinic_Limits', '--remove-data');
    expect(run.code).to.equal(1);
    expect(run.err).to.deep.equal([
      "Error: Cannot uninstall module 'Clinic_Limits' because the following module(s) depend on it:",
      '\tClinic_LimitsReport',
    ]);
    expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);

    // Through another module too: each dependent with its <sequence> path.
    tree.module('Clinic_Dashboard', { sequence: ['Clinic_LimitsReport'] });
    run = await cli('module:disable', 'Clinic_Limits');
    expect(run.err.slice(2)).to.deep.equal([
      'Clinic_Dashboard: Clinic_Dashboard->Clinic_LimitsReport->Clinic_Limits',
      'Clinic_LimitsReport: Clinic_LimitsReport->Clinic_Limits',
    ]);
    rmSync(tree.dir('Clinic_Dashboard'), { recursive: true });

    run = await cli('module:disable', 'Clinic_LimitsReport', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out.slice(0, 3)).to.deep.equal([
      'The following modules have been disabled:',
      '- Clinic_LimitsReport',
      '- Clinic_Limits',
    ]);

    run = await cli('module:enable', 'Clinic_LimitsReport');
    expect(run.code).to.equal(1);
    expect(run.err).to.deep.equal([
      'Error: Unable to change status of modules because of the following constraints:',
      'Cannot enable Clinic_LimitsReport, depending on disabled modules:',
      'Clinic_Limits: Clinic_LimitsReport->Clinic_Limits',
    ]);

    run = await cli('module:enable', '--force', 'Clinic_LimitsReport');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.include('Alert: You used the --force option. As a result, modules might not function properly.');
    // Start-up now stops on the broken dependency; the module commands still run and repair it.
    const refused = await cli('setup:upgrade').catch((error: Error) => error);
    expect((refused as Error).message).to.equal(
      'Module Clinic_LimitsReport depends on Clinic_Limits, which is disabled',
    );
    expect((await cli('module:status')).out).to.include(
      'Enabled modules (start-up refuses them: Module Clinic_LimitsReport depends on Clinic_Limits, which is disabled):',
    );
    run = await cli('module:enable', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect((await cli('module:status')).out).to.include.members(['  Clinic_Limits', '  Clinic_LimitsReport']);
    expect(configured()).to.include({ Clinic_Limits: true, Clinic_LimitsReport: true });

    run = await cli('module:enable', 'Clinic_Limits');
    expect(run.out).to.deep.equal(['No modules were changed.']);
  });

  it('should refuse unknown modules and an empty list, and change nothing', async () => {
    const before = readFileSync(tree.configFile, 'utf8');
    const refusals: [string[], string][] = [
      [['module:enable', 'Clinic_Nope'], "Error: Unknown module(s): 'Clinic_Nope'"],
      [['module:disable', 'Clinic_Limits', 'clinic_limits'], "Error: Unknown module(s): 'clinic_limits'"],
      // ModuleUninstallCommandTest::testExecuteFailedValidation, 'one unknown module'.
      [['module:uninstall', 'Clinic_Nope'], 'Error: Unknown module(s): Clinic_Nope'],
    ];
    for (const [argv, message] of refusals) {
      const run = await cli(...argv);
      expect(run.code, argv.join(' ')).to.equal(1);
      expect(run.err, argv.join(' ')).to.deep.equal([message]);
    }
    const run = await cli('module:disable');
    expect(run.code).to.equal(1);
    expect(run.err).to.deep.equal([
      'Error: No modules specified. Specify a space-separated list of modules or use the --all option',
    ]);
    expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);
  });

  it('should keep the data without --remove-data, keep the module off while its folder is there, and drop its entry once the folder is gone', async () => {
    expect((await cli('setup:upgrade')).code).to.equal(0);
    let run = await cli('module:uninstall', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out[0]).to.equal(
      "Clinic_Limits's 2 applied migration(s) and their tables are kept; 'module:uninstall --remove-data Clinic_Limits' removes them.",
    );
    expect(configured().Clinic_Limits).to.equal(false);
    expect(await appliedOf('clinic_limits')).to.deep.equal([AUDIT, ADD_STORE]);

    rmSync(tree.dir('Clinic_Limits'), { recursive: true });
    run = await cli('module:uninstall', 'Clinic_Limits');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(run.out).to.deep.equal([
      `Clinic_Limits is no longer listed in ${tree.configFile}.`,
      `Its 2 applied migration(s) and their tables are kept (${AUDIT}, ${ADD_STORE}).`,
    ]);
    expect(configured()).to.not.have.property('Clinic_Limits');
  });

  it("should keep etc/config.json's other keys, switch every module with --all, and leave a file that is not JSON alone", async () => {
    writeFileSync(tree.configFile, JSON.stringify({ modules: { Acme_RecommendationNotes: false }, note: 'kept' }));
    let run = await cli('module:disable', '--all');
    expect(run.code, run.err.join('\n')).to.equal(0);
    const written = JSON.parse(readFileSync(tree.configFile, 'utf8')) as {
      modules: Record<string, boolean>;
      note: string;
    };
    expect(written.note).to.equal('kept');
    expect(Object.values(written.modules).every((on) => !on)).to.equal(true);
    expect(written.modules).to.include({ Clinic_Limits: false, Dispensary_Store: false });
    run = await cli('module:enable', '--all');
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(Object.values(configured()).every((on) => on)).to.equal(true);

    writeFileSync(tree.configFile, '{ "modules": ');
    run = await cli('module:disable', 'Clinic_Limits');
    expect(run.code).to.equal(1);
    expect(run.err[0]).to.match(/config\.json: not valid JSON/);
    expect(readFileSync(tree.configFile, 'utf8')).to.equal('{ "modules": ');
  });

  it('should roll back all of a module or none of it where DDL is transactional, and say exactly what was rolled back where it is not', async () => {
    tree.fixtureModule('lifecycle', 'Clinic_Broken');
    expect((await cli('setup:upgrade')).code).to.equal(0);
    const before = readFileSync(tree.configFile, 'utf8');

    const run = await cli('module:uninstall', 'Clinic_Broken', '--remove-data');
    expect(run.code).to.equal(1);
    const message = run.err.join('\n');
    expect(message).to.contain(
      `Rolling back Clinic_Broken failed in ${BROKEN_FIRST}: clinic_broken_first cannot be removed yet.`,
    );
    if (parseDatabaseUrl(database.url).dialect === 'mysql') {
      expect(message).to.contain(
        `Rolled back: ${BROKEN_SECOND}. Not rolled back (still applied): ${BROKEN_FIRST}. MySQL/MariaDB commit each schema change at once`,
      );
      expect(await db.schema.hasTable('clinic_broken_second')).to.equal(false);
      expect(await appliedOf('clinic_broken')).to.deep.equal([BROKEN_FIRST]);
    } else {
      expect(message).to.contain(
        `Nothing was rolled back: the rollback ran in one transaction, which the database undid; 2 migration(s) of Clinic_Broken stay applied (${BROKEN_FIRST}, ${BROKEN_SECOND}).`,
      );
      expect(await db.schema.hasTable('clinic_broken_first')).to.equal(true);
      expect(await db.schema.hasTable('clinic_broken_second')).to.equal(true);
      expect(await appliedOf('clinic_broken')).to.deep.equal([BROKEN_FIRST, BROKEN_SECOND]);
    }
    expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);
    // The migration lock is free again.
    expect(
      ((await db('knex_migrations_lock').select('is_locked')) as { is_locked: number }[]).map((row) =>
        Number(row.is_locked),
      ),
    ).to.deep.equal([0]);
  });
});
