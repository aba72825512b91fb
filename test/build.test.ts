// npm test: start first (it builds copies of the project for minutes of tsc: started last, the whole run would wait for it)
/**
 * `npm run build` (app/bin/build.mjs), in a copy of the project so that a broken build never
 * touches the dist/ this suite runs from: it builds only when a source changed, says nothing under
 * `npm run --silent`, and a failed build emits nothing and leaves a dist/ that refuses to start.
 * It needs no database, so it runs in the SQLite run only.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

const LEAF = 'modules/Acme/RecommendationNotes/Plugin/NormaliseItemNotes.ts';
const LEAF_JS = 'dist/modules/Acme/RecommendationNotes/Plugin/NormaliseItemNotes.js';

describe('npm run build (app/bin/build.mjs)', function () {
  this.timeout(300_000);
  let copy: string;

  const run = (args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> =>
    spawnSync(process.execPath, args, { cwd: copy, encoding: 'utf8', env: { ...process.env, ...env } });
  const build = (env: Record<string, string> = {}) => run(['app/bin/build.mjs'], env);
  const mtime = (file: string) => statSync(path.join(copy, file)).mtimeMs;

  before(function () {
    if (process.env.TEST_DATABASE_URL) this.skip();
    copy = mkdtempSync(path.join(os.tmpdir(), 'dispensary-build-'));
    const tracked = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    }).stdout.split('\0');
    for (const file of tracked.filter(Boolean)) {
      if (existsSync(path.join(PROJECT_ROOT, file))) cpSync(path.join(PROJECT_ROOT, file), path.join(copy, file));
    }
    // node_modules as hard links, as `npm ci` would leave it (a symlink where they cannot be made: another
    // file system). With a symlink, tsc sees @types/node and the other global declarations at their real
    // path outside the copy, takes them for new files and checks the whole project again (28 s, not 6).
    try {
      execFileSync('cp', ['-al', path.join(PROJECT_ROOT, 'node_modules'), path.join(copy, 'node_modules')], {
        stdio: 'ignore',
      });
    } catch {
      rmSync(path.join(copy, 'node_modules'), { recursive: true, force: true });
      symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    }
    // The built tree comes along so tsc's incremental build has its previous state (dist/.tsbuildinfo).
    cpSync(path.join(PROJECT_ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
  });
  after(() => copy && rmSync(copy, { recursive: true, force: true }));

  // One build for both: a one-line change (besides the copy's new mtimes) builds, and the next build
  // finds nothing to do. Each build costs 10 s of setup:di:compile and tsc: the suite runs as few as it can.
  it('should build after a one-line change, saying nothing under npm run --silent', () => {
    appendFileSync(path.join(copy, LEAF), '// a one-line change\n');
    const silent = build({ npm_config_loglevel: 'silent' });
    expect(silent.status, silent.stderr).to.equal(0);
    expect(silent.stdout + silent.stderr).to.equal('');
    expect(readFileSync(path.join(copy, LEAF_JS), 'utf8')).to.include('// a one-line change');
  });

  it('should then find nothing to do and write nothing', () => {
    const built = [mtime('dist/app/bin/cli.js'), mtime(LEAF_JS)];
    const again = build();
    expect(again.status).to.equal(0);
    expect(again.stdout + again.stderr).to.equal('');
    expect([mtime('dist/app/bin/cli.js'), mtime(LEAF_JS)]).to.deep.equal(built);
  });

  describe('when the build fails', () => {
    let failed: SpawnSyncReturns<string>;
    before(() => {
      appendFileSync(path.join(copy, LEAF), "export const refusedByTheBuild: number = 'not a number';\n");
      failed = build();
    });

    it('should exit non-zero naming the error and emit nothing', () => {
      expect(failed.status).to.not.equal(0);
      expect(failed.stdout + failed.stderr).to.include('TS2322');
      expect(readFileSync(path.join(copy, LEAF_JS), 'utf8')).to.not.include('refusedByTheBuild');
    });

    it('should leave a dist/ whose CLI and server refuse to start', () => {
      for (const entry of ['dist/app/bin/cli.js', 'dist/app/bin/server.js']) {
        const started = run([entry, 'module:status'], { PORT: '0', DATABASE_URL: `sqlite:${copy}/var/x.sqlite` });
        expect(started.status, entry).to.equal(1);
        expect(started.stderr, entry).to.match(/^The last build failed/);
      }
    });

    it('should not take the failed build for done: the next build runs, and once fixed the CLI starts', () => {
      expect(build().status).to.not.equal(0);
      cpSync(path.join(PROJECT_ROOT, LEAF), path.join(copy, LEAF));
      const rebuilt = build();
      expect(rebuilt.status, rebuilt.stderr).to.equal(0);
      expect(existsSync(path.join(copy, 'dist', '.build-failed'))).to.equal(false);
      expect(run(['dist/app/bin/cli.js', 'module:status']).status).to.equal(0);
    });
  });
});
