// npm test: start first (it builds copies of the project for minutes of tsc: started last, the whole run would wait for it)
/**
 * `npm run build` (app/bin/build.mjs), in a copy of the project so that a broken build never
 * touches the dist/ this suite runs from: it builds only when a source changed, says nothing under
 * `npm run --silent`, a failed build emits nothing and leaves a dist/ that refuses to start, and
 * inversify is bundled into one module again after tsc wrote its re-export or npm installed packages.
 * It needs no database, so it runs in the SQLite run only.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

const LEAF = 'modules/Acme/RecommendationNotes/Plugin/NormaliseItemNotes.ts';
const LEAF_JS = 'dist/modules/Acme/RecommendationNotes/Plugin/NormaliseItemNotes.js';
const INVERSIFY = 'app/framework/di/inversify.ts';
const INVERSIFY_JS = 'dist/app/framework/di/inversify.js';
/** A file setup:di:compile is made of (app/bin/diCompile.ts imports it through DiCompiler.ts). */
const DI_COMPILE_PART = 'app/framework/compile/pluginMethodNames.ts';

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

  // Three builds in all (each costs 7-8 s of CPU), in an order that lets each prove two things: the
  // failed build and the run after it that must not take it for done, then the fix (a one-line change
  // from the last build that passed) built silently, then nothing to do.
  describe('when the build fails', () => {
    let failed: SpawnSyncReturns<string>;
    before(() => {
      // Not exported: the file's declarations stay as they were, so tsc checks this file alone (an
      // export would have it check every file that imports it too: 12 s of CPU a build, not 7.5).
      appendFileSync(path.join(copy, LEAF), "const refusedByTheBuild: number = 'not a number';\n");
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

    it('should not take the failed build for done: the next build runs, setup:di:compile from its changed source', () => {
      // A build runs setup:di:compile from the last passing build's dist/ only while none of its
      // sources changed (app/bin/build.mjs); this change to one of them must run the new source.
      const source = path.join(copy, DI_COMPILE_PART);
      const text = readFileSync(source, 'utf8');
      appendFileSync(source, "process.stdout.write('setup:di:compile ran from source\\n');\n");
      const again = build();
      writeFileSync(source, text);
      expect(again.status).to.not.equal(0);
      expect(again.stdout).to.include('setup:di:compile ran from source');
      expect(again.stdout + again.stderr).to.include('TS2322');
    });
  });

  describe('when fixed by a one-line change', () => {
    it('should build, saying nothing under npm run --silent, and the CLI starts', () => {
      cpSync(path.join(PROJECT_ROOT, LEAF), path.join(copy, LEAF));
      appendFileSync(path.join(copy, LEAF), '// a one-line change\n');
      // inversify's re-export changed too: tsc writes it again, and the build bundles it again.
      const bundled = mtime(INVERSIFY_JS);
      appendFileSync(path.join(copy, INVERSIFY), '// a one-line change\n');
      const silent = build({ npm_config_loglevel: 'silent' });
      expect(silent.status, silent.stderr).to.equal(0);
      expect(silent.stdout + silent.stderr).to.equal('');
      expect(readFileSync(path.join(copy, LEAF_JS), 'utf8')).to.include('// a one-line change');
      expect(mtime(INVERSIFY_JS)).to.not.equal(bundled);
      const inversify = readFileSync(path.join(copy, INVERSIFY_JS), 'utf8');
      expect(inversify).to.match(/^\/\/ inversify and its @inversifyjs packages, bundled by app\/bin\/build\.mjs/);
      // One module: of the packages, only reflect-metadata (one registry for every copy) is imported.
      expect(inversify.match(/^import .*$/gm)).to.deep.equal(['import "reflect-metadata/lite";']);
      expect(existsSync(path.join(copy, 'dist', '.build-failed'))).to.equal(false);
      expect(run(['dist/app/bin/cli.js', 'module:status']).status).to.equal(0);
    });

    it('should then find nothing to do and write nothing', () => {
      const built = [mtime('dist/app/bin/cli.js'), mtime(LEAF_JS), mtime(INVERSIFY_JS)];
      const again = build();
      expect(again.status).to.equal(0);
      expect(again.stdout + again.stderr).to.equal('');
      expect([mtime('dist/app/bin/cli.js'), mtime(LEAF_JS), mtime(INVERSIFY_JS)]).to.deep.equal(built);
    });

    it('should bundle inversify again, and write nothing else, after npm installed packages (another inversify, which tsc does not see)', function () {
      // What every npm install rewrites; in the copy a file of its own (node_modules is hard links),
      // not where node_modules had to be a symlink to this project's.
      const installed = path.join(copy, 'node_modules', '.package-lock.json');
      if (lstatSync(path.join(copy, 'node_modules')).isSymbolicLink()) return this.skip();
      const text = readFileSync(installed, 'utf8');
      rmSync(installed);
      writeFileSync(installed, text);
      const built = [mtime(LEAF_JS), mtime(INVERSIFY_JS)];
      const again = build();
      expect(again.status, again.stderr).to.equal(0);
      expect(mtime(LEAF_JS)).to.equal(built[0]);
      expect(mtime(INVERSIFY_JS)).to.not.equal(built[1]);
      expect(readFileSync(path.join(copy, INVERSIFY_JS), 'utf8')).to.match(
        /^\/\/ inversify and its @inversifyjs packages/,
      );
    });
  });
});
