/**
 * `npm run build` (also before `npm start`, `npm run cli`, `npm test`): setup:di:compile, then tsc,
 * and only when a file they read changed since the last build that passed.
 *
 * Plain JavaScript on purpose: it runs before anything is compiled, and starting tsx for a check
 * that usually finds nothing to do would cost most of the CLI's start.
 *
 * The check is a fingerprint (path, size and mtime of every file and folder under the sources, the
 * package lock included) kept in dist/.build-fingerprint by the last build that passed. A folder's
 * mtime changes when a file in it is added or removed, so deletions count too. `--force` builds
 * whatever the fingerprint says.
 *
 * A build that fails leaves dist/.build-failed, which app/bin/server.ts and app/bin/cli.ts refuse to
 * start on: nothing is emitted on an error, and the old dist/ must not run the XML that the failed
 * build refused either.
 *
 * tsc is TypeScript 7's native compiler (the `typescript-native` dependency, `npm:typescript@7`),
 * incremental, with noEmitOnError: a build after a one-line change takes about a second, where
 * TypeScript 5.9 took five (parsing and binding every file again, whatever changed), and a build
 * with an error writes nothing. TypeScript 5.9 (`typescript`) stays for what needs its JavaScript
 * API, which TypeScript 7 does not have yet (typescript-eslint, the import scan below, the code
 * block tests), and for `npm run typecheck`: a second compiler's opinion. TypeScript 7 emits the
 * same JavaScript as 5.9 for every file here but one: its `new (f() as T).X()` bug, which
 * eslint.config.js now refuses.
 *
 * After tsc, esbuild bundles inversify into one module over tsc's output of its re-export
 * (app/framework/di/inversify.ts): the package is some 250 small ES modules, about 0.15 s of every
 * start.
 *
 * setup:di:compile runs under tsx from source (package.json), and a build runs it that way when it
 * must: after a change to one of the files it is made of (app/bin/diCompile.ts and what it imports),
 * or with no build that passed before. Otherwise the last passing build compiled exactly these files
 * (dist/.di-compile-sources keeps their hash, and that of what it wrote for them: a build of another
 * version, an older checkout's, rewrites them), and the build imports that compiled copy in this
 * process, which has TypeScript 5.9 loaded already for that import scan: 0.5 s instead of 3.5 s of
 * tsx, its loader and a second TypeScript, on every build.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FINGERPRINT = path.join(root, 'dist', '.build-fingerprint');
const BUILD_FAILED = path.join(root, 'dist', '.build-failed');
/** setup:di:compile's entry, its compiled copy, and the hashes of its sources and their compiled files when the last passing build compiled them. */
const DI_COMPILE = 'app/bin/diCompile.ts';
const DI_COMPILE_JS = path.join(root, 'dist', 'app', 'bin', 'diCompile.js');
const DI_COMPILE_SOURCES = path.join(root, 'dist', '.di-compile-sources');
const require = createRequire(import.meta.url);

/** What the build reads: source folders walked whole, single files at the top. */
const SOURCE_DIRS = ['app', 'modules', 'test', 'bench', 'etc'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'knexfile.ts'];
/** Never inputs: the build's own output and what tests and the service write while they run. */
const SKIPPED = new Set(['node_modules', 'dist', 'generated', 'var', '.git']);

function fingerprint() {
  const hash = createHash('sha256');
  const add = (relative) => {
    const stat = statSync(path.join(root, relative), { throwIfNoEntry: false });
    hash.update(stat ? `${relative}\0${stat.size}\0${stat.mtimeMs}\n` : `${relative}\0-\n`);
    return stat;
  };
  const walk = (relative) => {
    const stat = add(relative);
    if (!stat?.isDirectory()) return;
    for (const entry of readdirSync(path.join(root, relative)).sort()) {
      if (!SKIPPED.has(entry)) walk(`${relative}/${entry}`);
    }
  };
  SOURCE_DIRS.forEach(walk);
  SOURCE_FILES.forEach(add);
  // An installed package that is a module (or the runtime's own dependencies) changes the build too.
  add('node_modules/.package-lock.json');
  return hash.digest('hex');
}

/**
 * The hashes of the files setup:di:compile is made of (DI_COMPILE and every project file it imports,
 * followed through relative imports; packages are node_modules, which the compiled copy imports as
 * tsx would) and of their compiled files in dist/, as one string. Undefined when an import is one
 * this cannot follow to a .ts file: then tsx runs it.
 */
function diCompileSources() {
  const ts = require('typescript');
  const hash = createHash('sha256');
  const seen = new Set();
  const visit = (relative) => {
    if (seen.has(relative)) return true;
    seen.add(relative);
    const text = readFileSync(path.join(root, relative), 'utf8');
    hash.update(`${relative}\0${text}\0`);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (fileName.startsWith('#')) return false;
      if (!fileName.startsWith('.')) continue;
      const target = path.posix.join(path.posix.dirname(relative), fileName).replace(/\.js$/, '.ts');
      if (!target.endsWith('.ts') || !existsSync(path.join(root, target)) || !visit(target)) return false;
    }
    return true;
  };
  if (!existsSync(path.join(root, DI_COMPILE)) || !visit(DI_COMPILE)) return undefined;
  const compiled = createHash('sha256');
  for (const relative of seen) {
    const js = path.join(root, 'dist', relative.replace(/\.ts$/, '.js'));
    compiled.update(`${relative}\0${existsSync(js) ? readFileSync(js, 'utf8') : '-'}\0`);
  }
  return `${hash.digest('hex')} ${compiled.digest('hex')}\n`;
}

/** setup:di:compile from the last passing build's dist/, in this process: its messages as tsx's would be. Undefined when that copy does not load. */
async function diCompileInProcess(dirs, quiet) {
  let setupDiCompile;
  try {
    ({ setupDiCompile } = await import(pathToFileURL(DI_COMPILE_JS).href));
  } catch {
    return undefined;
  }
  if (typeof setupDiCompile !== 'function') return undefined;
  const lines = [];
  const status = setupDiCompile(root, dirs, (line) => lines.push(`${line}\n`));
  if (!quiet || status !== 0) process.stderr.write(lines.join(''));
  return status;
}

function run(command, args, quiet) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', quiet ? 'pipe' : 'inherit'] });
  // Quiet keeps errors: a failing step's stderr is printed, a passing step's is not.
  if (quiet && result.status !== 0 && result.stderr) process.stderr.write(result.stderr);
  return result.status ?? 1;
}

/**
 * tsc -p tsconfig.json with TypeScript 7 (incremental and noEmitOnError, as tsconfig.json says): its
 * diagnostics on stdout, nothing written when any file has an error. Exit 0: built; 1: errors,
 * nothing written; 2: errors, yet files written (an emit failure). `emitted` says whether it may
 * have written (a tsc killed mid-way answers 1 through run(); the next build's hash of
 * setup:di:compile's compiled files still sees anything it wrote).
 */
function typescript(emitted, quiet) {
  const native = path.dirname(require.resolve('typescript-native/package.json'));
  const status = run(process.execPath, [path.join(native, 'bin', 'tsc'), '-p', 'tsconfig.json'], quiet);
  emitted.value = status !== 1;
  return status;
}

/**
 * inversify as one module (app/framework/di/inversify.ts says why): esbuild bundles that file's
 * source over tsc's output of it, 0.2 s. When tsc wrote the file again (inversify.ts changed) or npm
 * installed packages since the bundle was made (another inversify, which tsc does not see): the
 * bundle's first line names the install it was made from, by node_modules/.package-lock.json's size
 * and mtime, which every npm install rewrites. reflect-metadata stays outside, one registry for the
 * bundle and for any module that imports inversify itself.
 */
const INVERSIFY_JS = path.join(root, 'dist', 'app', 'framework', 'di', 'inversify.js');

function bundleInversify(quiet) {
  const installed = statSync(path.join(root, 'node_modules', '.package-lock.json'), { throwIfNoEntry: false });
  const banner = `// inversify and its @inversifyjs packages, bundled by app/bin/build.mjs (esbuild) from the install of ${
    installed ? `${installed.size}/${installed.mtimeMs}` : '-'
  }`;
  if (existsSync(INVERSIFY_JS) && readFileSync(INVERSIFY_JS, 'utf8').startsWith(`${banner}\n`)) return 0;
  try {
    require('esbuild').buildSync({
      entryPoints: [path.join(root, 'app', 'framework', 'di', 'inversify.ts')],
      outfile: INVERSIFY_JS,
      allowOverwrite: true,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['reflect-metadata', 'reflect-metadata/*'],
      banner: { js: banner },
      sourcemap: true,
      logLevel: quiet ? 'error' : 'warning',
    });
    return 0;
  } catch (error) {
    process.stderr.write(`bundling inversify (app/framework/di/inversify.ts) failed: ${error.message}\n`);
    return 1;
  }
}

async function build({ force, quiet }) {
  const current = fingerprint();
  const last = existsSync(FINGERPRINT) ? readFileSync(FINGERPRINT, 'utf8') : '';
  if (!force && last === current && !existsSync(BUILD_FAILED)) return 0;

  rmSync(FINGERPRINT, { force: true });
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const diCompile = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts['setup:di:compile'];
  const [tool, ...args] = diCompile.split(/\s+/);
  const usesTsx = tool === 'tsx' && args[0] === DI_COMPILE;
  const before = usesTsx ? diCompileSources() : undefined;
  const compiled =
    before !== undefined &&
    existsSync(DI_COMPILE_JS) &&
    existsSync(DI_COMPILE_SOURCES) &&
    readFileSync(DI_COMPILE_SOURCES, 'utf8') === before;
  const emitted = { value: false };
  const status =
    ((compiled ? await diCompileInProcess(args.slice(1), quiet) : undefined) ?? run(bin(tool), args, quiet)) ||
    typescript(emitted, quiet) ||
    bundleInversify(quiet);
  mkdirSync(path.dirname(FINGERPRINT), { recursive: true });
  // The hash is kept when this build passed and compiled what it was taken of (taken again: a file
  // saved while tsc ran does not count). A failed build writes nothing, so the compiled copy of the
  // last passing one stays good, unless tsc got as far as writing.
  const after = status === 0 && before !== undefined ? diCompileSources() : undefined;
  if (after !== undefined && after.split(' ')[0] === before.split(' ')[0]) writeFileSync(DI_COMPILE_SOURCES, after);
  else if (status === 0 || emitted.value) rmSync(DI_COMPILE_SOURCES, { force: true });
  if (status !== 0) {
    writeFileSync(BUILD_FAILED, `The last build failed (exit ${status}): run npm run build and fix what it names.\n`);
    return status;
  }
  rmSync(BUILD_FAILED, { force: true });
  // Taken again: the build itself must not count as a change (nothing it writes is walked, but a
  // file saved while tsc ran must make the next build run).
  writeFileSync(FINGERPRINT, current === fingerprint() ? current : '');
  return 0;
}

const argv = process.argv.slice(2);
process.exitCode = await build({
  force: argv.includes('--force'),
  // `npm run --silent ...` says so through npm_config_loglevel; --quiet says it directly.
  quiet: argv.includes('--quiet') || process.env.npm_config_loglevel === 'silent',
});
