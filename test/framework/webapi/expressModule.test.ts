/**
 * expressModule (app/framework/webapi/expressModule.ts): a CLI command that starts the application
 * without serving HTTP never loads express; the HTTP app does. Each in a process of its own, with a
 * preload that says at exit whether any file of express was loaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

describe('expressModule: express loaded only to serve HTTP', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let folder: string;
  let probe: string;

  before(async () => {
    database = await createTestDatabase();
    folder = mkdtempSync(path.join(os.tmpdir(), 'express-probe-'));
    probe = path.join(folder, 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write(`\\nexpress loaded: ${Object.keys(require.cache).some((f) => /[\\\\/]node_modules[\\\\/]express[\\\\/]/.test(f))}\\n`));\n",
    );
  });
  after(async () => {
    rmSync(folder, { recursive: true, force: true });
    await database.release();
  });

  const expressLoaded = (args: string[]): boolean => {
    const result = spawnSync(process.execPath, ['--require', probe, ...args], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
    });
    expect(result.status, result.stderr).to.equal(0);
    const [, loaded] = /express loaded: (true|false)/.exec(result.stderr) ?? [];
    expect(loaded, result.stderr).to.be.a('string');
    return loaded === 'true';
  };

  it('should apply the migrations with setup:upgrade, the whole application started, without express', () => {
    expect(expressLoaded([path.join(DIST_ROOT, 'app', 'bin', 'cli.js'), 'setup:upgrade'])).to.equal(false);
  });

  it("should load it for the application's HTTP app", () => {
    const application = path.join(DIST_ROOT, 'app', 'bootstrap', 'Application.js');
    const script =
      `import 'reflect-metadata'; const { Application } = await import(${JSON.stringify(application)}); ` +
      "const app = await Application.create({ area: 'webapi_rest', databaseUrl: process.env.DATABASE_URL }); " +
      'app.http(); await app.close();';
    expect(expressLoaded(['--input-type=module', '-e', script])).to.equal(true);
  });
});
