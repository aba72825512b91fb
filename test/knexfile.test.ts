/**
 * knexfile.ts through the real knex CLI, as a knex user runs it from the project root: a child
 * process `knex migrate:...` on a database of its own (SQLite, or the TEST_DATABASE_URL server),
 * checked against what the service itself records; and `npm run migration:make`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import ts from 'typescript';
import { Application } from '../app/bootstrap/Application.js';
import { moduleConfigFile } from '../app/bootstrap/config/DeploymentConfig.js';
import { DIST_ROOT, PROJECT_ROOT } from '../app/bootstrap/config/paths.js';
import { parseDatabaseUrl } from '../app/framework/db/dialect.js';
import { ModuleMigrationSource } from '../app/framework/db/MigrationSource.js';
import { loadModules } from '../app/framework/module/ModuleLoader.js';
import { ModuleTree } from './framework/support/moduleTree.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

const KNEX_CLI = createRequire(import.meta.url).resolve('knex/bin/cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

/** What the service (compiled code, the suite's MODULE_CONFIG_FILE, which the knex CLI reads too) would migrate, in its order. */
function serviceMigrationNames(): string[] {
  const modules = loadModules(
    [{ modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') }],
    moduleConfigFile(),
  );
  return new ModuleMigrationSource(modules).list().map((migration) => migration.name);
}

/**
 * Node flags that make a process fail on any import (ESM, as the sources load) resolved into
 * dist/: the knex CLI runs the TypeScript sources and needs no build (knexfile.ts), so nothing it
 * loads may come from there (a migration that reached `#framework` loaded the compiled framework,
 * all of it). Files in `folder`.
 */
function failOnDist(folder: string): string[] {
  const dist = `${pathToFileURL(DIST_ROOT).href}/`;
  writeFileSync(
    path.join(folder, 'noDist.mjs'),
    `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith(${JSON.stringify(dist)}))
    throw new Error(\`\${specifier} (from \${context.parentURL}) is the compiled \${resolved.url}: the knex CLI needs no build\`);
  return resolved;
}
`,
  );
  writeFileSync(
    path.join(folder, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./noDist.mjs', import.meta.url);\n",
  );
  return ['--import', pathToFileURL(path.join(folder, 'register.mjs')).href];
}

describe('knexfile.ts (the knex CLI from the project root)', function () {
  this.timeout(120_000);
  const names = serviceMigrationNames();
  let database: TestDatabase;
  let db: Knex;
  let hooks: string;
  let noDist: string[];

  // Every command here fails on an import from dist/.
  const knex = (...args: string[]) =>
    run(process.execPath, [...noDist, KNEX_CLI, ...args], { DATABASE_URL: database.url });
  before(() => {
    hooks = mkdtempSync(path.join(os.tmpdir(), 'knexfile-hooks-'));
    noDist = failOnDist(hooks);
  });
  after(() => rmSync(hooks, { recursive: true, force: true }));
  const recorded = async () =>
    (await db('knex_migrations').orderBy('id').select('name')).map((row: { name: string }) => row.name);
  const serviceUpgrade = async () => {
    const app = await Application.create({ area: 'global', databaseUrl: database.url });
    try {
      return (await app.setupUpgrade()).migrations;
    } finally {
      await app.close();
    }
  };

  beforeEach(async () => {
    database = await createTestDatabase();
    db = knexFactory({ ...parseDatabaseUrl(database.url).config, pool: { min: 0, max: 1 } });
  });
  afterEach(async () => {
    await db.destroy();
    await database.release();
  });

  it("should resolve the package's own imports (#framework) in the sources the knex CLI runs, not in dist/", async () => {
    // A migration may import what module code imports; knexfile.js has #framework name the sources
    // (app/bin/sourceConditions.mjs), and the hook above fails on any import from dist/.
    const file = path.join(PROJECT_ROOT, 'var', `knexfile-imports-${process.pid}.ts`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "export { Joi } from '#framework';\n");
    try {
      const script =
        "await import('./knexfile.js'); const { tsImport } = await import('tsx/esm/api'); " +
        `const { Joi } = await tsImport(${JSON.stringify(pathToFileURL(file).href)}, import.meta.url); ` +
        'process.stdout.write(typeof Joi.string);';
      const result = await run(process.execPath, [...noDist, '--input-type=module', '-e', script], {
        DATABASE_URL: database.url,
      });
      expect(result.stdout, result.stderr).to.equal('function');
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('should list pending migrations with migrate:status, then apply them with migrate:latest under the names the service records', async () => {
    expect(names.length).to.be.greaterThan(0);
    const status = await knex('migrate:status');
    expect(status.code, status.stderr).to.equal(0);
    expect(status.stdout).to.contain('No Completed Migration files Found.');
    expect(status.stdout).to.contain(`Found ${names.length} Pending Migration file/files.`);
    for (const name of names) expect(status.stdout).to.contain(`${name}.ts`);

    const latest = await knex('migrate:latest');
    expect(latest.code, latest.stderr).to.equal(0);
    expect(latest.stdout).to.contain(`Batch 1 run: ${names.length} migrations`);
    expect(await recorded()).to.deep.equal(names);
    expect(await db.schema.hasTable('store')).to.equal(true);
    // The service sees its own migrations as done: nothing left to apply.
    expect(await serviceUpgrade()).to.deep.equal([]);
  });

  it("should list the service's migrations as completed with migrate:list, and undo them with migrate:rollback", async () => {
    expect(await serviceUpgrade()).to.deep.equal(names);
    const list = await knex('migrate:list');
    expect(list.code, list.stderr).to.equal(0);
    expect(list.stdout).to.contain(`Found ${names.length} Completed Migration file/files.`);
    expect(list.stdout).to.contain('No Pending Migration files Found.');

    const rollback = await knex('migrate:rollback');
    expect(rollback.code, rollback.stderr).to.equal(0);
    expect(rollback.stdout).to.contain(`Batch 1 rolled back: ${names.length} migrations`);
    expect(await recorded()).to.deep.equal([]);
    for (const table of ['store', 'catalog_product', 'integration_token']) {
      expect(await db.schema.hasTable(table), table).to.equal(false);
    }
    // And forward again, so down() left nothing behind that up() trips over.
    expect(await serviceUpgrade()).to.deep.equal(names);
  });

  it('should list the applied migration of a removed module as completed, not call the directory corrupt, and refuse to roll it back naming the module', async () => {
    expect(await serviceUpgrade()).to.deep.equal(names);
    // What a module leaves behind when its folder is deleted after its migration ran (and setup:upgrade recorded its owner).
    const gone = '20261124000000_clinic_gone_create_thing';
    await db('knex_migrations').insert({ name: gone, batch: 2, migration_time: new Date() });
    await db('setup_module_migration').insert({ migration: gone, module: 'Clinic_Gone' });

    const list = await knex('migrate:list');
    expect(list.code, list.stderr).to.equal(0);
    expect(list.stdout)
      .to.contain(`Found ${names.length + 1} Completed Migration file/files.`)
      .and.to.contain(gone);
    const latest = await knex('migrate:latest');
    expect(latest.code, latest.stderr).to.equal(0);
    expect(latest.stdout).to.contain('Already up to date');

    const rollback = await knex('migrate:rollback');
    expect(rollback.code).to.not.equal(0);
    expect(rollback.stderr + rollback.stdout).to.contain(
      `Migration ${gone} belongs to Clinic_Gone, which is no longer in the module folders`,
    );
    expect(await recorded()).to.deep.equal([...names, gone]);
  });

  it('should refuse a plain knex migrate:make, which would write outside every module', async () => {
    const result = await knex('migrate:make', 'orphan');
    expect(result.code).not.to.equal(0);
    expect(result.stderr + result.stdout).to.contain('npm run migration:make -- --module Vendor_Module <name>');
  });
});

describe('npm run migration:make', function () {
  this.timeout(120_000);
  let tree: ModuleTree;
  let database: TestDatabase;
  beforeEach(async () => {
    tree = ModuleTree.create();
    tree.module('Fixture_Ledger').module('Fixture_Other');
    database = await createTestDatabase();
  });
  afterEach(async () => {
    tree.remove();
    await database.release();
  });

  const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');
  const make = (...args: string[]) =>
    run(process.execPath, [TSX_CLI, 'app/bin/makeMigration.ts', '--modules-dir', tree.modulesDir, ...args]);

  it("should write an empty migration named <UTC timestamp>_<vendor>_<module>_<name>.ts into the module's folder, which the service then runs", async () => {
    const startedAt = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    // The documented command itself, through npm.
    const result = await run('npm', [
      'run',
      '--silent',
      'migration:make',
      '--',
      '--modules-dir',
      tree.modulesDir,
      '--module',
      'Fixture_Ledger',
      'add_entry',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    const folder = tree.path('Fixture_Ledger', 'migrations');
    const files = readdirSync(folder);
    expect(files).to.have.length(1);
    const [, stamp] = /^(\d{14})_fixture_ledger_add_entry\.ts$/.exec(files[0]!) ?? [];
    expect(stamp, files[0]).to.be.a('string');
    expect(stamp! >= startedAt).to.equal(true);
    expect(result.stdout).to.contain(path.join(folder, files[0]!));
    const source = readFileSync(path.join(folder, files[0]!), 'utf8');
    expect(source).to.equal(
      readFileSync(path.join(PROJECT_ROOT, 'app', 'framework', 'db', 'migration.stub.ts'), 'utf8'),
    );

    // What `npm run build` would emit, next to the source (the tree has no separate code folder).
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(path.join(folder, files[0]!.replace(/\.ts$/, '.js')), outputText);
    const app = await Application.create({ ...tree.options('global'), databaseUrl: database.url });
    try {
      expect((await app.setupUpgrade()).migrations).to.deep.equal([files[0]!.replace(/\.ts$/, '')]);
    } finally {
      await app.close();
    }
  });

  it('should refuse unknown modules and names that are not letters, digits and _', async () => {
    const unknown = await make('--module', 'Fixture_Missing', 'x');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('No module Fixture_Missing').and.to.contain('Fixture_Ledger');
    const badName = await make('--module', 'Fixture_Ledger', 'drop table;');
    expect(badName.code).to.equal(2);
    expect(badName.stderr).to.contain('usage: npm run migration:make');
  });

  it("should refuse, and leave nothing behind, a name another module's migration already has", async () => {
    // Another module holds fixture_ledger_add_entry for every second the command may run in.
    const now = Date.now();
    for (let second = 0; second < 120; second++) {
      const stamp = new Date(now + second * 1000).toISOString().replace(/\D/g, '').slice(0, 14);
      tree.file(
        'Fixture_Other',
        `migrations/${stamp}_fixture_ledger_add_entry.ts`,
        'export async function up(): Promise<void> {}\n',
      );
    }
    // A name that already starts with the vendor and module keeps a single prefix.
    const result = await make('--module', 'Fixture_Ledger', 'fixture_ledger_add_entry');
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(
      /Migration name "\d{14}_fixture_ledger_add_entry" is used by both Fixture_Ledger \(.+\) and Fixture_Other \(.+\d{14}_fixture_ledger_add_entry\.ts\): .+; nothing was created/,
    );
    expect(readdirSync(tree.path('Fixture_Ledger', 'migrations'))).to.deep.equal([]);
  });
});
