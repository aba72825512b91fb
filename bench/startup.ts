/**
 * `npm run bench:startup [-- --runs N] [-- --no-loop]`: what reading the modules' XML costs at
 * start-up, against reading the same configuration compiled to one JSON file (Magento's compiled
 * mode), and the whole start-up (a fresh `node` process up to a built Application, webapi_rest
 * area) for scale. Prints medians; writes nothing. The compiled form here is measured only:
 * start-up still reads the XML (see docs/writing-a-module.md, "setup:di:compile").
 *
 * Then the developer's loop, end to end as a person types it: `npm run cli -- module:status` with
 * nothing changed, `npm start` to its first answer, and `npm run build` after a one-line change
 * to a module's file (the line is taken out again afterwards, and the tree rebuilt).
 */
import 'reflect-metadata';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DIST_ROOT, PROJECT_ROOT } from '../app/bootstrap/config/paths.js';
import { readAclConfig } from '../app/framework/config/AclConfig.js';
import { DiConfig, readDiConfig } from '../app/framework/config/DiConfig.js';
import { moduleXmlPaths } from '../app/framework/config/moduleXmlFiles.js';
import { readWebapiConfig } from '../app/framework/config/WebapiConfig.js';
import { EventConfig, readEventConfig } from '../app/framework/event/EventConfig.js';
import {
  ExtensionAttributesConfig,
  readExtensionAttributesConfig,
} from '../app/framework/extension/ExtensionAttributesConfig.js';
import { loadModules } from '../app/framework/module/ModuleLoader.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;
const measureLoop = !process.argv.includes('--no-loop');
const SOURCES = [{ modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') }];
const CONFIG_FILE = path.join(PROJECT_ROOT, 'etc', 'config.json');

function readXml() {
  const modules = loadModules(SOURCES, CONFIG_FILE);
  return {
    modules,
    di: readDiConfig(modules, 'webapi_rest'),
    routes: readWebapiConfig(modules),
    acl: readAclConfig(modules),
    events: readEventConfig(modules, 'webapi_rest'),
    extension: readExtensionAttributesConfig(modules),
  };
}

/** Maps survive the round trip (the configs are maps of maps). */
const replacer = (_key: string, value: unknown) => (value instanceof Map ? { $map: [...value] } : value);
const reviver = (_key: string, value: unknown) =>
  value && typeof value === 'object' && '$map' in value
    ? new Map((value as { $map: [unknown, unknown][] }).$map)
    : value;

/** The compiled read: one JSON file, after checking every source file is as it was compiled (a stat each). */
function readCompiled(file: string) {
  const compiled = JSON.parse(readFileSync(file, 'utf8'), reviver) as ReturnType<typeof readXml> & {
    sources: [string, number][];
  };
  for (const [source, mtimeMs] of compiled.sources)
    if (statSync(source).mtimeMs !== mtimeMs) throw new Error(`${source} changed since compile`);
  return {
    ...compiled,
    di: Object.assign(new DiConfig(), compiled.di),
    events: Object.assign(new EventConfig(), compiled.events),
    extension: Object.assign(new ExtensionAttributesConfig(), compiled.extension),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeMs(fn: () => unknown): number {
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Milliseconds a shell command takes, end to end (npm's own start included). */
function commandMs(command: string, args: string[]): number {
  const started = performance.now();
  execFileSync(command, args, { cwd: PROJECT_ROOT, stdio: 'ignore' });
  return performance.now() - started;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** `npm start` (its build step finding nothing to do) until GET /health first answers, on a new SQLite file. */
async function startToFirstAnswerMs(databaseDir: string, run: number): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${databaseDir}/start-${run}.sqlite`,
    },
  });
  try {
    // Bounded: 600 tries of 50 ms.
    for (let i = 0; i < 600; i++) {
      const answered = await fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.status > 0,
        () => false,
      );
      if (answered) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('npm start did not answer within 30 s');
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
  }
}

/** The developer's loop, medians: the CLI and npm start with nothing to build, a rebuild after a one-line change. */
async function developerLoop(databaseDir: string): Promise<string[]> {
  commandMs('npm', ['run', '--silent', 'build']);
  const cli = Array.from({ length: Math.min(runs, 7) }, () =>
    commandMs('npm', ['run', '--silent', 'cli', '--', 'module:status']),
  );
  const start: number[] = [];
  for (let i = 0; i < Math.min(runs, 5); i++) start.push(await startToFirstAnswerMs(databaseDir, i));
  const leaf = path.join(PROJECT_ROOT, 'modules', 'Acme', 'RecommendationNotes', 'Plugin', 'NormaliseItemNotes.ts');
  const original = readFileSync(leaf, 'utf8');
  const rebuild: number[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      appendFileSync(leaf, `// bench:startup ${i}\n`);
      rebuild.push(commandMs('npm', ['run', '--silent', 'build']));
      writeFileSync(leaf, original);
    }
  } finally {
    writeFileSync(leaf, original);
    commandMs('npm', ['run', '--silent', 'build']);
  }
  return [
    `The developer's loop, end to end (medians; targets on a quiet machine: CLI < 2 s, rebuild < 10 s):`,
    `  npm run cli -- module:status, nothing changed:  ${median(cli).toFixed(0)} ms`,
    `  npm start to the first answer, nothing changed: ${median(start).toFixed(0)} ms`,
    `  npm run build after a one-line change:          ${median(rebuild).toFixed(0)} ms`,
  ];
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
try {
  const config = readXml();
  const etc = (name: string, area: 'global' | 'webapi_rest' = 'global') =>
    moduleXmlPaths(config.modules, name, area).map(({ file }) => file);
  const sources = [
    CONFIG_FILE,
    ...etc('module.xml'),
    ...etc('di.xml', 'webapi_rest'),
    ...etc('webapi.xml'),
    ...etc('acl.xml'),
    ...etc('events.xml', 'webapi_rest'),
    ...etc('extension_attributes.xml'),
  ];
  const compiledFile = path.join(dir, 'webapi_rest.json');
  writeFileSync(
    compiledFile,
    JSON.stringify({ ...config, sources: sources.map((s) => [s, statSync(s).mtimeMs]) }, replacer),
  );
  const roundTrip = readCompiled(compiledFile);
  if (JSON.stringify(roundTrip.di, replacer) !== JSON.stringify(config.di, replacer))
    throw new Error('the compiled di config differs from the XML one');

  // The first reading in a process pays for warming up the parser: measured apart.
  const firstXml = timeMs(readXml);
  const xml = Array.from({ length: runs }, () => timeMs(readXml));
  const compiled = Array.from({ length: runs }, () => timeMs(() => readCompiled(compiledFile)));

  const script = `
    const started = performance.now();
    const { Application } = await import(${JSON.stringify(path.join(DIST_ROOT, 'app', 'bootstrap', 'Application.js'))});
    const { default: pino } = await import('pino');
    const app = await Application.create({ area: 'webapi_rest', logger: pino({ level: 'silent' }), databaseUrl: 'sqlite://:memory:' });
    process.stdout.write(String(performance.now() - started) + ' ' + String(performance.now()));
    await app.close();`;
  const whole: number[] = [];
  const process_: number[] = [];
  for (let i = 0; i < Math.min(runs, 7); i++) {
    const [create, sinceStart] = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    })
      .split(' ')
      .map(Number);
    whole.push(create!);
    process_.push(sinceStart!);
  }
  const lines = [
    `Start-up configuration, webapi_rest area, ${config.modules.length} enabled modules, ${sources.length} source files; medians of ${runs} runs:`,
    `  XML, first read in a process:        ${firstXml.toFixed(1)} ms`,
    `  XML, warm:                           ${median(xml).toFixed(2)} ms`,
    `  compiled JSON + a stat per source:   ${median(compiled).toFixed(2)} ms`,
    `Whole start-up for scale (fresh process, medians of ${whole.length}):`,
    `  import + Application.create:         ${median(whole).toFixed(0)} ms`,
    `  node start to Application built:     ${median(process_).toFixed(0)} ms`,
  ];
  if (measureLoop) lines.push(...(await developerLoop(dir)));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
