// npm test: start first (minutes of npm and builds in a copy of the project: started last, the whole run would wait for it)
/**
 * Issue 27, end to end: a module written in a folder of its own (test/fixtures/packages/
 * acme-packaged-limits: its own package.json, TypeScript compiled against the runtime's public
 * entry points, its own mocha tests), packed with `npm pack`, installed with npm into a clean copy
 * of this project, and taken through its whole life there: enable, upgrade, serving through its
 * plugin and its route, a type error caught by the build, disable, uninstall with its data, enable
 * again from scratch, npm uninstall. Every command of docs/module-packages.md is run on the way
 * (the last test checks that none was skipped).
 *
 * Offline: npm reads only the local tarball (`--offline`). What the guide installs from the
 * registry (the module's devDependencies) and `git clone` + `npm ci` are stood in for by links to
 * this project's node_modules and a copy of its files (hard links for node_modules): see
 * STAND_INS. One suite, run once; it prints how long each step took.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { freePort, ServerProcess } from '../support/serverProcess.js';

const run = promisify(execFile);
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'packages', 'acme-packaged-limits');
const GUIDE = path.join(PROJECT_ROOT, 'docs', 'module-packages.md');
const MIGRATION = '20261127000000_acme_packaged_limits_create_limit';
/** The devDependencies the guide installs from the registry, linked from this project's node_modules instead. */
const DEV_DEPENDENCIES = [
  'typescript',
  'mocha',
  'chai',
  'supertest',
  '@types/mocha',
  '@types/chai',
  '@types/node',
  '@types/supertest',
];

/**
 * Where this project keeps a devDependency under another name: the package's `typescript` is
 * TypeScript 7, which this project has as `typescript-native` (its `typescript` is 5.9, for the
 * tools that need its JavaScript API: app/bin/build.mjs).
 */
const IN_THIS_PROJECT: Record<string, string> = { typescript: 'typescript-native' };

/** Commands of the guide that need the network or a remote, and what this test does in their place. */
const STAND_INS: Record<string, string> = {
  'npm install --save-dev ../dispensary':
    'a link node_modules/dispensary-runtime to this project (what npm makes of a folder)',
  'npm install --save-dev typescript mocha chai supertest @types/mocha @types/chai @types/node @types/supertest':
    "links to this project's copies",
  'git clone https://example.com/dispensary.git shop':
    "a copy of this project's files (git ls-files) and of its built dist/ (a checkout built before)",
  'npm ci': "hard links to this project's node_modules",
  'npm start': 'a server process on a free loopback port (node dist/app/bin/server.js, what npm start runs)',
};

/** Every command line of the guide's ```sh blocks (comments and `cd` left out). */
function guideCommands(): string[] {
  const commands: string[] = [];
  for (const block of readFileSync(GUIDE, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line && !line.startsWith('#') && !line.startsWith('cd ')) commands.push(line);
    }
  }
  return commands;
}

/** The environment of a command in the copy: none of the outer npm's settings, this test's database. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

/**
 * It takes minutes (two builds of a fresh copy, the package's build, tests and pack), and what it
 * proves does not depend on the database, so it runs once per CI: on SQLite. TEST_MODULE_PACKAGE=1
 * runs it on TEST_DATABASE_URL's server too; TEST_MODULE_PACKAGE=0 skips it (docs/testing.md).
 */
const RUN =
  process.env.TEST_MODULE_PACKAGE === '1' ||
  (process.env.TEST_MODULE_PACKAGE !== '0' && !process.env.TEST_DATABASE_URL?.match(/^(mysql|postgres)/));

(RUN ? describe : describe.skip)(
  'A module shipped as an npm package (docs/module-packages.md), end to end',
  function () {
    this.timeout(15 * 60_000);

    let work: string;
    let pkg: string;
    let shop: string;
    let database: TestDatabase;
    let knex: Knex;
    let env: NodeJS.ProcessEnv;
    let tarball: string;
    /** The integration token the guide's `integration:token:create` made (kept in the database, valid after restarts). */
    let token: string;
    const ran = new Set<string>();
    const timings: [string, number][] = [];

    /** Runs one of the guide's commands in `cwd`: answers exit code and output (stdout then stderr). */
    async function sh(cwd: string, command: string, actual = command): Promise<{ code: number; out: string }> {
      ran.add(command);
      const started = Date.now();
      try {
        const { stdout, stderr } = await run('bash', ['-c', actual], { cwd, env, maxBuffer: 64 * 1024 * 1024 });
        return { code: 0, out: stdout + stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        return { code: typeof failed.code === 'number' ? failed.code : 1, out: `${failed.stdout}${failed.stderr}` };
      } finally {
        timings.push([command, Date.now() - started]);
      }
    }

    /** `npm run cli -- <args>` in the copy: the built CLI (npm run cli builds first; the test builds once per change). */
    async function cli(args: string): Promise<{ code: number; out: string }> {
      return sh(shop, `npm run cli -- ${args}`, `node dist/app/bin/cli.js ${args}`);
    }

    async function ok(result: Promise<{ code: number; out: string }>): Promise<string> {
      const { code, out } = await result;
      expect(code, out).to.equal(0);
      return out;
    }

    async function applied(): Promise<string[]> {
      return (await knex('knex_migrations').select('name')).map((row: { name: string }) => row.name).sort();
    }

    before(async () => {
      work = mkdtempSync(path.join(os.tmpdir(), 'module-package-'));
      database = await createTestDatabase();
      knex = knexFactory({ ...parseDatabaseUrl(database.url).config, pool: { min: 0, max: 1 } });
      env = cleanEnv({ DATABASE_URL: database.url });
    });

    after(async () => {
      await knex?.destroy();
      await database?.release();
      if (work) rmSync(work, { recursive: true, force: true });
      const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
      process.stdout.write(
        `      module package end to end: ${(total / 1000).toFixed(1)} s in commands; slowest: ` +
          [...timings]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 5)
            .map(([command, ms]) => `${command} ${(ms / 1000).toFixed(1)} s`)
            .join(', ') +
          '\n',
      );
    });

    it('should build the package in its own folder against the runtime and pass its own tests there', async () => {
      pkg = path.join(work, 'acme-packaged-limits');
      cpSync(FIXTURE, pkg, { recursive: true, filter: (source) => !/[\\/](node_modules|dist)$/.test(source) });
      // Stand-ins for `npm install --save-dev ../dispensary` and the registry devDependencies.
      ran.add('npm install --save-dev ../dispensary');
      ran.add(
        'npm install --save-dev typescript mocha chai supertest @types/mocha @types/chai @types/node @types/supertest',
      );
      mkdirSync(path.join(pkg, 'node_modules', '@types'), { recursive: true });
      mkdirSync(path.join(pkg, 'node_modules', '.bin'));
      symlinkSync(PROJECT_ROOT, path.join(pkg, 'node_modules', 'dispensary-runtime'));
      for (const name of DEV_DEPENDENCIES)
        symlinkSync(
          path.join(PROJECT_ROOT, 'node_modules', IN_THIS_PROJECT[name] ?? name),
          path.join(pkg, 'node_modules', name),
        );
      symlinkSync('../typescript/bin/tsc', path.join(pkg, 'node_modules', '.bin', 'tsc'));
      symlinkSync('../mocha/bin/mocha.js', path.join(pkg, 'node_modules', '.bin', 'mocha'));

      const tested = await ok(sh(pkg, 'npm test'));
      expect(tested).to.match(/2 passing/);
      expect(existsSync(path.join(pkg, 'dist', 'Plugin', 'RefuseLargeQty.d.ts'))).to.equal(true);
    });

    it('should refuse, in its own build, code that misuses the Api of the module it extends', async () => {
      const plugin = path.join(pkg, 'Plugin', 'RefuseLargeQty.ts');
      const text = readFileSync(plugin, 'utf8');
      writeFileSync(plugin, text.replace('item.qty > limit', 'item.quantity > limit'));
      const { code, out } = await sh(pkg, 'npm run build');
      writeFileSync(plugin, text);
      expect(code).to.not.equal(0);
      expect(out).to.include("Property 'quantity' does not exist on type 'RecommendationItemInput'");
    });

    it('should pack it with npm pack: its etc/, compiled JavaScript, types and migration', async () => {
      const out = await ok(sh(pkg, 'npm pack'));
      tarball = path.join(pkg, 'acme-packaged-limits-1.0.0.tgz');
      expect(existsSync(tarball), out).to.equal(true);
      const listed = await ok(sh(pkg, 'tar -tzf acme-packaged-limits-1.0.0.tgz'));
      expect(listed.split('\n')).to.include.members([
        'package/package.json',
        'package/etc/module.xml',
        'package/etc/di.xml',
        'package/dist/Plugin/RefuseLargeQty.js',
        'package/dist/Plugin/RefuseLargeQty.d.ts',
        `package/dist/migrations/${MIGRATION}.js`,
      ]);
    });

    it('should install the tarball into a clean copy of the project with npm', async () => {
      shop = path.join(work, 'shop');
      ran.add('git clone https://example.com/dispensary.git shop');
      ran.add('npm ci');
      const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
        cwd: PROJECT_ROOT,
        maxBuffer: 64 * 1024 * 1024,
      });
      for (const file of stdout.split('\0').filter(Boolean)) {
        if (!existsSync(path.join(PROJECT_ROOT, file))) continue;
        mkdirSync(path.dirname(path.join(shop, file)), { recursive: true });
        cpSync(path.join(PROJECT_ROOT, file), path.join(shop, file));
      }
      // node_modules as `npm ci` leaves it, as hard links (the copy's npm install must not write into
      // this project's files: npm rewrites .package-lock.json in place, so that one is a real copy).
      await run('cp', ['-al', path.join(PROJECT_ROOT, 'node_modules'), path.join(shop, 'node_modules')]);
      unlinkSync(path.join(shop, 'node_modules', '.package-lock.json'));
      cpSync(
        path.join(PROJECT_ROOT, 'node_modules', '.package-lock.json'),
        path.join(shop, 'node_modules', '.package-lock.json'),
      );
      // dist/ as this project's last build left it, tsc's incremental state (dist/.tsbuildinfo) with it:
      // the copy's first build checks what the package changes, not the whole project again (40 s of
      // tsc). The build still runs in full (the copy's sources and node_modules differ from the
      // fingerprint of the build that made this dist/), setup:di:compile with it.
      cpSync(path.join(PROJECT_ROOT, 'dist'), path.join(shop, 'dist'), { recursive: true });
      env = { ...env, MODULE_CONFIG_FILE: path.join(shop, 'etc', 'config.json') };

      await ok(
        sh(
          shop,
          'npm install ../acme-packaged-limits/acme-packaged-limits-1.0.0.tgz',
          `npm install --offline --no-audit --no-fund ${tarball}`,
        ),
      );
      expect(JSON.parse(readFileSync(path.join(shop, 'package.json'), 'utf8')).dependencies).to.have.property(
        'acme-packaged-limits',
      );
      expect(existsSync(path.join(shop, 'node_modules', 'acme-packaged-limits', 'etc', 'module.xml'))).to.equal(true);
    });

    it("should stop the project's build on a plugin of the package that does not fit what it plugs", async () => {
      const types = path.join(shop, 'node_modules', 'acme-packaged-limits', 'dist', 'Plugin', 'RefuseLargeQty.d.ts');
      const text = readFileSync(types, 'utf8');
      // As if the author had typed the request as the item list itself: the package's own build cannot
      // know (only etc/di.xml ties the plugin to addItems); setup:di:compile + tsc in the project do,
      // for an installed package whether or not it is enabled. This is the copy's first build: the
      // next case's, which passes, is its only other one (each checks the whole project's types).
      writeFileSync(types, text.replace('recommendation: RecommendationItemsRequest', 'recommendation: string[]'));
      const { code, out } = await sh(shop, 'npm run build');
      writeFileSync(types, text);
      expect(code, out).to.not.equal(0);
      expect(out).to.include('generated/di/Acme_PackagedLimits.ts');
      expect(out).to.include('beforeAddItems');
      // A failed build leaves dist/ refusing to start until a build passes again.
      const refused = await cli('module:status');
      expect(refused.code).to.not.equal(0);
      expect(refused.out).to.match(/The last build failed/);
    });

    it('should build with the package as it ships, checking its plugin, and list it among the disabled modules', async () => {
      const built = await ok(sh(shop, 'npm run build'));
      expect(built).to.not.include('not checked by the compiler: Acme_PackagedLimits');
      expect(readFileSync(path.join(shop, 'generated', 'di', 'Acme_PackagedLimits.ts'), 'utf8')).to.include(
        'Plugin_Acme_PackagedLimits_Plugin_RefuseLargeQty_on_Dispensary_Recommendation_Api_RecommendationItemManagementInterface_beforeAddItems',
      );
      const status = await ok(cli('module:status'));
      expect(status.split('Disabled modules:')[1]).to.include(
        'Acme_PackagedLimits  acme-packaged-limits@1.0.0 (node_modules/acme-packaged-limits)',
      );
    });

    it('should enable it, apply its migration with setup:upgrade and load it after the module its <sequence> names', async () => {
      expect(await ok(cli('module:enable Acme_PackagedLimits'))).to.include('- Acme_PackagedLimits');
      const status = (await ok(cli('module:status'))).split('\n').map((line) => line.trim());
      expect(status.indexOf('Acme_PackagedLimits  acme-packaged-limits@1.0.0 (node_modules/acme-packaged-limits)'))
        .to.be.greaterThan(status.indexOf('Dispensary_Recommendation'))
        .and.lessThan(status.indexOf('Disabled modules:'));
      const pending = await cli('setup:db:status');
      expect(pending.code).to.equal(2);
      expect(pending.out).to.include(`Acme_PackagedLimits (enabled)\n  pending   ${MIGRATION}`);
      expect(await ok(cli('setup:upgrade'))).to.include(MIGRATION);
      expect(await ok(cli('setup:db:status'))).to.include(`Acme_PackagedLimits (enabled)\n  applied   ${MIGRATION}`);
      expect(await knex.schema.hasTable('acme_packaged_limit')).to.equal(true);
    });

    it("should leave the project's own tests as they are with the package installed and enabled", async () => {
      // The suite runs with a module config of its own (test/setup.ts), in which an installed package is
      // not listed and so stays off: the Update Items tests pass a qty of 10000, which it would refuse.
      // One mocha process (TEST_JOBS=1): two workers would each load the suite's set-up again for
      // these few files (4 s of CPU), and in what they prove serial and parallel do not differ.
      const { code, out } = await sh(
        shop,
        'node dist/test/run.js test/modules/Recommendation/updateItems.http.test.ts test/framework/cli/commands',
        'TEST_JOBS=1 node dist/test/run.js test/modules/Recommendation/updateItems.http.test.ts test/framework/cli/commands',
      );
      expect(code, out).to.equal(0);
      expect(out).to.match(/\d+ passing/);
    });

    it('should serve its route and run its plugin on the project routes', async () => {
      const server = ServerProcess.spawn(
        database.url,
        await freePort(),
        env as Record<string, string>,
        undefined,
        shop,
      );
      ran.add('npm start');
      try {
        await server.ready();
        token = (await ok(cli('integration:token:create --name shop --all-stores'))).trim().split('\n').pop()!;
        const call = async (method: string, url: string, body?: unknown) => {
          const res = await fetch(`${server.url}/rest${url}`, {
            method,
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        };
        expect(
          (await call('POST', '/all/V1/products', { product: { sku: 'VIT-D3', name: 'D3', price: 10 } })).status,
        ).to.equal(200);
        const patient = await call('POST', '/default/V1/dispensary/patient', {
          patient: { firstname: 'Ada', lastname: 'L', email: 'ada@example.com' },
        });
        const recommendation = await call(
          'POST',
          `/default/V1/dispensary/patient/${patient.body.patient_id}/recommendation`,
        );
        const items = `/default/V1/dispensary/recommendation/${recommendation.body.recommendation_id}/item`;

        expect(await call('POST', '/default/V1/acme/limits', { limit: { sku: 'VIT-D3', max_qty: 2 } })).to.deep.equal({
          status: 200,
          body: { sku: 'VIT-D3', max_qty: 2 },
        });
        expect(await call('GET', '/default/V1/acme/limits/VIT-D3')).to.deep.equal({
          status: 200,
          body: { sku: 'VIT-D3', max_qty: 2 },
        });
        const refused = await call('POST', items, { recommendation: { items: [{ sku: 'VIT-D3', qty: 3 }] } });
        expect(refused).to.deep.equal({
          status: 400,
          body: { message: 'The qty of "%sku" may be at most %limit.', parameters: { sku: 'VIT-D3', limit: 2 } },
        });
        expect((await call('POST', items, { recommendation: { items: [{ sku: 'VIT-D3', qty: 2 }] } })).status).to.equal(
          200,
        );
      } finally {
        await server.stop();
      }
    });

    it('should disable it (its route gone, its table kept), remove its data with module:uninstall, and enable it again from scratch', async () => {
      const projectMigrations = (await applied()).filter((name) => name !== MIGRATION);
      await knex('acme_packaged_limit').insert({ sku: 'KEEP-ME', max_qty: 1 }).onConflict('sku').ignore();

      expect(await ok(cli('module:disable Acme_PackagedLimits'))).to.include('- Acme_PackagedLimits');
      const server = ServerProcess.spawn(
        database.url,
        await freePort(),
        env as Record<string, string>,
        undefined,
        shop,
      );
      try {
        await server.ready();
        const res = await fetch(`${server.url}/rest/default/V1/acme/limits/VIT-D3`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(res.status).to.equal(404);
      } finally {
        await server.stop();
      }
      expect(await knex.schema.hasTable('acme_packaged_limit')).to.equal(true);
      expect(await ok(cli('setup:db:status'))).to.include(`Acme_PackagedLimits (disabled)\n  orphaned  ${MIGRATION}`);

      const uninstalled = await ok(cli('module:uninstall --remove-data Acme_PackagedLimits'));
      expect(uninstalled).to.include(`rolled back 1 migration(s)`);
      expect(uninstalled).to.include("'npm uninstall acme-packaged-limits' removes its package");
      expect(await knex.schema.hasTable('acme_packaged_limit')).to.equal(false);
      expect(await applied()).to.deep.equal(projectMigrations);

      // Enabled again, it starts from scratch: its migration runs again on an empty table.
      await ok(cli('module:enable Acme_PackagedLimits'));
      await ok(cli('setup:upgrade'));
      expect(await applied()).to.include(MIGRATION);
      expect(await knex('acme_packaged_limit').select('sku')).to.deep.equal([]);
    });

    it('should go with its data and then with npm uninstall, leaving the project as it was', async () => {
      const projectMigrations = (await applied()).filter((name) => name !== MIGRATION);
      await ok(cli('module:disable Acme_PackagedLimits'));
      await ok(cli('module:uninstall --remove-data Acme_PackagedLimits'));
      await ok(
        sh(
          shop,
          'npm uninstall acme-packaged-limits',
          'npm uninstall --offline --no-audit --no-fund acme-packaged-limits',
        ),
      );
      expect(existsSync(path.join(shop, 'node_modules', 'acme-packaged-limits'))).to.equal(false);
      expect(await applied()).to.deep.equal(projectMigrations);
      expect(await knex.schema.hasTable('acme_packaged_limit')).to.equal(false);
      expect(await ok(cli('module:status'))).to.not.include('Acme_PackagedLimits');
    });

    it('should have run every command of docs/module-packages.md', () => {
      const commands = guideCommands();
      expect(commands.length).to.be.greaterThan(10);
      expect(commands.filter((command) => !ran.has(command))).to.deep.equal([]);
      expect(Object.keys(STAND_INS).filter((command) => !commands.includes(command))).to.deep.equal([]);
      // The package.json the guide shows is the fixture's.
      expect(readFileSync(GUIDE, 'utf8')).to.include(
        `\`\`\`json\n${readFileSync(path.join(FIXTURE, 'package.json'), 'utf8')}\`\`\``,
      );
    });
  },
);
