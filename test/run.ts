/**
 * `npm test [-- <test file, folder or glob>... <mocha options>]`: runs mocha (options in
 * .mocharc.json) on the compiled tests in dist/ that the TypeScript test files name.
 *
 *   npm test                                         # every test/**\/*.test.ts but the fixtures
 *   npm test -- test/modules/Catalog/products.http.test.ts
 *   npm test -- test/modules/Recommendation          # every test file under it
 *   npm test -- 'test/modules/**\/plugins.http.test.ts' # a glob (quoted: this script expands it)
 *   npm test -- test/smoke.test.ts --grep health     # anything else goes to mocha as it is
 *   npm test -- modules/Acme/RecommendationNotes     # a module's own tests (its Test/ folder)
 *
 * Tests are found from their TypeScript sources, so a compiled test whose source was deleted
 * (a stale file in dist/) never runs. Fixtures (test/fixtures/) are not tests. A module may keep its
 * tests in its own folder, as Magento modules do: `modules/<Vendor>/<Module>/Test/**\/*.test.ts` run
 * with the others and on their own (docs/testing.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

const TEST_DIR = 'test';
const MODULES_DIR = 'modules';
const FIXTURES = 'test/fixtures/';
/** A test in a module's own folder: `modules/<Vendor>/<Module>/Test/...`. */
const MODULE_TEST = /^modules\/[^/]+\/[^/]+\/Test\//;

/** Every test source under a folder (project-relative, `/`-separated), fixtures left out. */
function testSources(folder: string): string[] {
  if (!existsSync(path.join(PROJECT_ROOT, folder))) return [];
  return readdirSync(path.join(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((entry) => `${folder}/${entry.split(path.sep).join('/')}`)
    .filter(
      (file) =>
        file.endsWith('.test.ts') &&
        !file.startsWith(FIXTURES) &&
        (!file.startsWith(`${MODULES_DIR}/`) || MODULE_TEST.test(file)),
    )
    .sort();
}

/** Every test of the project: test/ and the modules' Test/ folders. */
function allTestSources(): string[] {
  return [...testSources(TEST_DIR), ...testSources(MODULES_DIR)];
}

function under(relative: string, folder: string): boolean {
  return relative === folder || relative.startsWith(`${folder}/`);
}

/** `**` any folders, `*` and `?` within a name, `{a,b}` either. */
function globPattern(glob: string): RegExp {
  let source = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '{') {
      source += '(?:';
      braces++;
    } else if (c === '}' && braces > 0) {
      source += ')';
      braces--;
    } else if (c === ',' && braces > 0) source += '|';
    else source += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The test sources an argument names, or null when it is no test path (a mocha option or its value). */
function sourcesOf(arg: string): string[] | null {
  const relative = path.relative(PROJECT_ROOT, path.resolve(arg)).split(path.sep).join('/');
  if (!under(relative, TEST_DIR) && !under(relative, MODULES_DIR)) return null;
  if (/[*?{]/.test(relative)) {
    const pattern = globPattern(relative);
    return allTestSources().filter((file) => pattern.test(file));
  }
  const absolute = path.join(PROJECT_ROOT, relative);
  if (existsSync(absolute) && statSync(absolute).isDirectory()) return testSources(relative);
  if (relative.endsWith('.ts')) return existsSync(absolute) ? [relative] : [];
  return null;
}

const specs: string[] = [];
const passed: string[] = [];
let selected = false;
for (const arg of process.argv.slice(2)) {
  const sources = arg.startsWith('-') ? null : sourcesOf(arg);
  if (sources === null) {
    passed.push(arg);
    continue;
  }
  if (sources.length === 0) {
    process.stderr.write(`npm test: no test file matches ${arg}\n`);
    process.exit(1);
  }
  selected = true;
  specs.push(...sources);
}
const files = (selected ? specs : allTestSources()).map((source) => path.join('dist', source.replace(/\.ts$/, '.js')));
const missing = files.filter((file) => !existsSync(path.join(PROJECT_ROOT, file)));
if (missing.length) {
  process.stderr.write(`npm test: not compiled (does the file exist? npm test builds first): ${missing.join(', ')}\n`);
  process.exit(1);
}

/**
 * Files run in parallel, TEST_JOBS at a time (default: one more than the cores, at most 4: a worker
 * spends part of its files waiting on timers, sockets and child processes, and on 2 cores three
 * workers kept both busier, 213 -> 199 s for the whole suite, docs/testing.md): each test builds its
 * own database, queue names and ports, so files never share state. A file whose source says
 * `// npm test: run alone` (it stops the shared RabbitMQ broker, say) runs afterwards, by itself.
 *
 * The parallel files start longest first, by the seconds each took in earlier runs (kept in
 * var/test-durations.json; on a fresh clone, before its first run, test/durations.json, the
 * seconds of a quiet run committed with the tests), or, never timed, first when their source says
 * `// npm test: start first` (the build suite, minutes of tsc) and else in their order: a long
 * file started last would run on alone while the other workers sit idle.
 */
const jobs = Number(process.env.TEST_JOBS) || Math.min(4, os.availableParallelism() + 1);
const RUN_ALONE = /^\/\/ npm test: run alone\b/m;
/** Each file's TypeScript source, read once: its first lines say how it runs. */
const sources = new Map(
  files.map((file) => [
    file,
    readFileSync(path.join(PROJECT_ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')), 'utf8'),
  ]),
);
const sourceOf = (file: string) => sources.get(file)!;
const alone = files.filter((file) => RUN_ALONE.test(sourceOf(file)));
/** TEST_DURATIONS_FILE and TEST_DURATIONS_SEED name other files (test/run.test.ts). */
const DURATIONS = process.env.TEST_DURATIONS_FILE || path.join(PROJECT_ROOT, 'var', 'test-durations.json');
const SEED = process.env.TEST_DURATIONS_SEED || path.join(PROJECT_ROOT, 'test', 'durations.json');

function readDurations(file = DURATIONS): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

const START_FIRST = /^\/\/ npm test: start first\b/m;
const durations = existsSync(DURATIONS) ? readDurations() : readDurations(SEED);
const together = files
  .filter((file) => !alone.includes(file))
  .map((file, index) => ({
    file,
    index,
    seconds: durations[file] ?? (START_FIRST.test(sourceOf(file)) ? Infinity : undefined),
  }))
  .sort((a, b) => (b.seconds ?? -1) - (a.seconds ?? -1) || a.index - b.index)
  .map(({ file }) => file);

/** Folds the seconds the workers logged (test/setup.ts) into var/test-durations.json. */
function saveDurations(log: string): void {
  if (!existsSync(log)) return;
  const merged = readDurations();
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const [file, seconds] = JSON.parse(line) as [string, number];
    merged[path.relative(PROJECT_ROOT, file).split(path.sep).join('/')] = Math.round(seconds * 10) / 10;
  }
  mkdirSync(path.dirname(DURATIONS), { recursive: true });
  writeFileSync(DURATIONS, `${JSON.stringify(merged, null, 2)}\n`);
}

const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
let running: ChildProcess | undefined;
/** Set once the run is told to stop (Ctrl-C, CI's time limit): no later group starts after it. */
let stopped = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopped = true;
    running?.kill(signal);
  });

async function runMocha(group: string[], parallel: boolean): Promise<number> {
  if (group.length === 0) return 0;
  // A dry run only loads the files to list their tests: each worker would load the whole
  // application again for its share (about 3 s of CPU more for every file, and no faster).
  const inParallel = parallel && group.length > 1 && jobs > 1 && !passed.includes('--dry-run');
  const args = inParallel ? ['--parallel', '--jobs', String(jobs)] : [];
  const argv = [mocha, ...args, ...group, ...passed];
  // TEST_RUN_PLAN=1 (test/run.test.ts): print the arguments mocha would be started with, one JSON
  // line per group, and start nothing: which files the runner picks, in which order and how, in a
  // tenth of a second, where mocha would load every file it is given (the whole suite's, 9 s of
  // CPU). The cases of run.test.ts that start mocha keep the path below tested.
  if (process.env.TEST_RUN_PLAN === '1') {
    process.stdout.write(`${JSON.stringify(argv.slice(1))}\n`);
    return 0;
  }
  // Each file's seconds, logged by the workers (only a parallel run of whole files times them one by one).
  const folder = inParallel && passed.length === 0 ? mkdtempSync(path.join(os.tmpdir(), 'test-durations-')) : undefined;
  const log = folder && path.join(folder, 'log');
  // Never an outer run's log: a test that runs npm test itself must not time its files there.
  const { TEST_DURATIONS: _outer, ...env } = process.env;
  if (log) env.TEST_DURATIONS = log;
  running = spawn(process.execPath, argv, {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env,
  });
  const code = await new Promise<number>((resolve) =>
    running!.on('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0))),
  );
  if (folder) {
    saveDurations(log!);
    rmSync(folder, { recursive: true, force: true });
  }
  return code;
}

const code = await runMocha(together, true);
if (stopped) process.exit(code || 1);
process.exit((await runMocha(alone, false)) || code);
