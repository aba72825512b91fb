/**
 * `npm test -- <paths>` (test/run.ts) through the real runner, as a developer types it: the
 * TypeScript paths given, and only those, run from their compiled copies.
 *
 * A few cases start mocha (a file run for real, a dry run of a folder, options passed on, a run
 * stopped by a signal); the others ask the runner for its plan (TEST_RUN_PLAN: the arguments it
 * would start mocha with, printed, nothing started), where mocha would load every file it is given
 * only to list it: the whole suite's dry run alone was 9 s of CPU. The folder's case checks that
 * the plan names exactly the files mocha then runs.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { DIST_ROOT, PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

interface Run {
  code: number;
  stderr: string;
  /** The compiled test files mocha ran, project-relative. */
  files: string[];
  /** The same, in the order their tests ran. */
  order: string[];
}

interface Plan {
  code: number;
  stderr: string;
  /** The arguments of each mocha process the runner would start, in turn (the files together, then those run alone). */
  commands: string[][];
  /** The compiled test files among them, project-relative, sorted. */
  files: string[];
  /** The same, in the order they are given to mocha. */
  order: string[];
}

async function runner(env: Record<string, string>, args: readonly string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(DIST_ROOT, 'test', 'run.js'), ...args],
      { cwd: PROJECT_ROOT, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function npmTest(...args: string[]): Promise<Run> {
  const { code, stdout, stderr } = await runner({}, [...args, '--reporter', 'json']);
  // One JSON report per mocha run: the files run together, then those that run alone.
  const starts = [...stdout.matchAll(/\{\s*"stats"/g)].map((match) => match.index);
  const reports = starts.map(
    (start, i) => JSON.parse(stdout.slice(start, starts[i + 1] ?? stdout.length)) as { tests: { file: string }[] },
  );
  const tests = reports.flatMap((report) => report.tests);
  const order = [...new Set(tests.map((t) => path.relative(PROJECT_ROOT, t.file)))];
  return { code, stderr, files: [...order].sort(), order };
}

/** What `npm test -- <args>` would start mocha with (TEST_RUN_PLAN), nothing started. */
async function planOf(env: Record<string, string>, ...args: string[]): Promise<Plan> {
  const { code, stdout, stderr } = await runner({ ...env, TEST_RUN_PLAN: '1' }, args);
  const commands = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as string[]);
  const order = commands.flatMap((command) => command.filter((arg) => arg.startsWith('dist/')));
  return { code, stderr, commands, files: [...order].sort(), order };
}

/** Three test files that load little (no application): mocha lists or runs them in well under a second. */
const LIGHT = 'test/framework/bootstrap/config';
const SETTINGS = `dist/${LIGHT}/settings.test.js`;
const MODULE_LOADER = 'dist/test/framework/module/ModuleLoader.test.js';

/** The compiled copies of a source folder's test files, as the runner should pick them (read, not listed by hand, so a new test there changes nothing). */
function testsOf(folder: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, folder))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `dist/${folder}/${name.replace(/\.ts$/, '.js')}`);
}

describe('npm test (test/run.ts)', function () {
  this.timeout(60_000);

  it('should run only the TypeScript test file given, from dist/', async () => {
    const run = await npmTest(`${LIGHT}/settings.test.ts`);
    expect([run.code, run.files]).to.deep.equal([0, [SETTINGS]]);
  });

  // What the runner picks is what mocha is given: a dry run (the files loaded, their tests listed,
  // none run, in one process) shows it as a real run would, for a fraction of the CPU; the plan
  // names the same files, nothing loaded. The case above runs one file for real.
  it('should run every test file of a folder, and of a glob it expands itself', async () => {
    const folder = await npmTest(`${LIGHT}/`, '--dry-run');
    expect([folder.code, folder.files]).to.deep.equal([0, testsOf(LIGHT)]);
    expect(folder.files).to.have.length.above(1);
    expect((await planOf({}, `${LIGHT}/`)).files).to.deep.equal(folder.files);
    const both = [...testsOf('test/framework/module'), ...testsOf('test/framework/event')].sort();
    expect(both).to.include.members([MODULE_LOADER, 'dist/test/framework/event/EventManager.test.js']);
    expect((await planOf({}, 'test/framework/{module,event}/*.test.ts')).files).to.deep.equal(both);
  });

  it('should pass other arguments to mocha', async () => {
    const run = await npmTest(`${LIGHT}/settings.test.ts`, '--grep', 'no test is named like this');
    expect([run.code, run.files]).to.deep.equal([0, []]);
  });

  it('should refuse a path that names no test file', async () => {
    const run = await npmTest('test/framework/module/NoSuch.test.ts');
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('npm test: no test file matches test/framework/module/NoSuch.test.ts');
  });

  it("should run the tests a module keeps in its own Test/ folder, given the module's folder, a file or a glob", async () => {
    const own = 'dist/modules/Acme/RecommendationNotes/Test/Api/practitionerMemo.http.test.js';
    for (const arg of [
      'modules/Acme/RecommendationNotes',
      'modules/Acme/RecommendationNotes/Test/Api/practitionerMemo.http.test.ts',
      'modules/**/Test/**/*.test.ts',
    ]) {
      const plan = await planOf({}, arg);
      expect([plan.code, plan.files], arg).to.deep.equal([0, [own]]);
    }
  });

  it("should run the modules' own tests with the others when given no path", async () => {
    const plan = await planOf({});
    expect(plan.code).to.equal(0);
    expect(plan.files).to.include.members([
      'dist/modules/Acme/RecommendationNotes/Test/Api/practitionerMemo.http.test.js',
      MODULE_LOADER,
    ]);
    expect(plan.files.filter((file) => file.startsWith('dist/test/fixtures/'))).to.deep.equal([]);
  });

  /**
   * The order one job runs test/framework/config's first three files in (mocha runs them as given),
   * with `seconds` of the second and third written to the durations file or to the seed.
   */
  async function orderBy(where: 'file' | 'seed', seconds: [number, number]): Promise<string[]> {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'test-durations-'));
    const written = path.join(folder, 'durations.json');
    try {
      const [, second, third] = testsOf('test/framework/config').sort();
      writeFileSync(written, JSON.stringify({ [second!]: seconds[0], [third!]: seconds[1] }));
      const env: Record<string, string> =
        where === 'file'
          ? { TEST_DURATIONS_FILE: written }
          : { TEST_DURATIONS_FILE: path.join(folder, 'none.json'), TEST_DURATIONS_SEED: written };
      const plan = await planOf({ TEST_JOBS: '1', ...env }, 'test/framework/config');
      expect(plan.commands, 'one mocha process').to.have.length(1);
      expect(plan.commands[0]).to.not.include('--parallel');
      return plan.order.slice(0, 3);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it('should start the files that took longest in earlier runs first, the others after them in path order', async () => {
    const [first, second, third] = testsOf('test/framework/config').sort();
    expect(await orderBy('file', [7, 2])).to.deep.equal([second, third, first]);
  });

  it('should take the order from the committed seconds (test/durations.json) before the first run', async () => {
    const [first, second, third] = testsOf('test/framework/config').sort();
    expect(await orderBy('seed', [1, 3])).to.deep.equal([third, second, first]);
  });

  it('should start nothing more once stopped: a signal during the parallel files ends the run there', async () => {
    // eslint.cycles.test.ts takes seconds (in-process: a stopped run leaves no database or child
    // behind); concurrency.http.test.ts runs alone, after it, unless stopped.
    const child = spawn(
      process.execPath,
      [
        path.join(DIST_ROOT, 'test', 'run.js'),
        'test/eslint.cycles.test.ts',
        'test/modules/Recommendation/concurrency.http.test.ts',
      ],
      { cwd: PROJECT_ROOT, env: { ...process.env, TEST_JOBS: '1' } },
    );
    let stdout = '';
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The first file's suite has started: stop the run, once, as Ctrl-C or CI's time limit would.
      if (!signalled && stdout.includes('eslint.cycles.js')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exit) => resolve(exit)));
    expect(code).to.not.equal(0);
    expect(stdout).to.not.include('concurrent requests');
  });

  it('should not run a compiled test whose TypeScript source is gone', async () => {
    const stale = path.join(DIST_ROOT, 'test', 'framework', 'module', 'Stale.test.js');
    writeFileSync(stale, "it('is stale', () => { throw new Error('a stale test ran'); });\n");
    try {
      // Had the runner listed dist/, the plan would name the stale file; had it given mocha the
      // folder, it would name no file at all (and mocha would load the stale one).
      expect((await planOf({}, 'test/framework/module')).files).to.deep.equal(testsOf('test/framework/module'));
    } finally {
      rmSync(stale, { force: true });
    }
  });
});
