/**
 * A consumer process (`queue:consumers:start`) guards itself as the server does (processGuard.ts):
 * an error escaping a module's consumer is logged, and the consumer finishes its work and exits 0
 * instead of dying on the first unhandled rejection. Run in a child process of its own: the test
 * runner has its own handlers for both.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT } from '../../../app/bootstrap/config/paths.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { PROJECT_MODULE_SOURCES, writeModuleConfig } from '../../support/modules.js';
import { fixtureCodeDir, fixtureSourceDir } from '../support/moduleTree.js';

const GUARD = { modulesDir: fixtureSourceDir('consumerGuard'), codeDir: fixtureCodeDir('consumerGuard') };

describe('queue:consumers:start with a consumer that lets errors escape', function () {
  this.timeout(60_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.release();
  });

  it('should log the escaped rejection and throw, finish its work and exit 0', () => {
    const sources = [PROJECT_MODULE_SOURCES, GUARD];
    const options = {
      databaseUrl: database.url,
      moduleSources: sources,
      moduleConfigFile: writeModuleConfig({}, sources),
    };
    const cli = path.join(DIST_ROOT, 'app', 'cli', 'Cli.js');
    const script = `
      await import('reflect-metadata');
      const { runCli } = await import(${JSON.stringify(cli)});
      const code = await runCli(
        ['node', 'cli', 'queue:consumers:start', 'fixture.escaping'],
        { out: (line) => console.log(line), err: (line) => console.error(line) },
        ${JSON.stringify(options)},
      );
      process.exitCode = code;
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 45_000,
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    expect(result.status, result.stdout + result.stderr).to.equal(0);
    // The CLI logs to stderr (its stdout is the command's output).
    const logged = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; err?: { message: string } });
    expect(logged.map((line) => line.err?.message)).to.include.members([
      'a rejection nobody awaited',
      'a throw in a timer',
    ]);
    expect(result.stdout).to.include('Consumer fixture.escaping processed 1 message(s).');
  });
});
