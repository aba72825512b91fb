/**
 * `npm run bench -- --scenario login-flood`: what an anonymous login flood does to everyone else
 * (issue 11, finding 1). For each server (this revision's service; with --baseline <ref> also
 * that revision's): a database of its own, an admin user and an all-stores token made by that
 * revision's own CLI, then the server alone:
 *
 *  1. unloaded: an authenticated GET (`/rest/all/V1/store/storeViews`: token look-up + a query)
 *     and `/health`, each for `seconds` with 4 connections;
 *  2. the same two while a separate process (autocannon's CLI) keeps 64 connections posting
 *     wrong passwords for one admin name to `POST /rest/V1/integration/admin/token`.
 *
 * Modes: `worst` turns the per-address limit and the lock-out off, so every flood request
 * hashes at the default cost (what a flood from many addresses does); `defaults` keeps the
 * shipped limits (a flood from one address). The baseline has neither, so it runs once.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { databaseUrl } from '../../app/bootstrap/config/DeploymentConfig.js';
import { drive, type LoadResult } from './load.js';
import { ServerProcess } from './proc.js';
import { createBenchDatabase } from './seed.js';
import { round } from './stats.js';

export interface LoginFloodOptions {
  readonly dir: string;
  readonly seconds: number;
  readonly floodConnections: number;
  /** Seconds the flood runs before the measurements under it (2; less for the smoke test). */
  readonly rampSeconds?: number;
  readonly baselineRoot?: string;
  readonly baselineRef?: string;
  readonly log: (line: string) => void;
}

export interface FloodMeasure {
  readonly p50: number;
  readonly p99: number;
  readonly rps: number;
  readonly non2xx: number;
  /** 2xx answers within the run (0: every request outlived it). */
  readonly ok: number;
}

export interface FloodRun {
  readonly server: string;
  readonly mode: string;
  readonly getUnloaded: FloodMeasure;
  readonly getFlood: FloodMeasure;
  readonly healthUnloaded: FloodMeasure;
  readonly healthFlood: FloodMeasure;
  /** Flood answers by status, and their rate. */
  readonly floodStatus: Record<string, number>;
  readonly floodRps: number;
}

export interface LoginFloodReport {
  readonly database: string;
  readonly runs: FloodRun[];
}

const measure = (r: LoadResult): FloodMeasure => ({
  p50: round(r.p50, 2),
  p99: round(r.p99, 2),
  rps: round(r.rps, 0),
  non2xx: r.non2xx,
  ok: r.ok,
});

function cli(root: string, databaseUrl: string, ...argv: string[]): string {
  const result = spawnSync(process.execPath, [path.join(root, 'dist', 'app', 'bin', 'cli.js'), ...argv], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${argv[0]} failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').pop()!.trim();
}

/** 64 connections of wrong passwords from another process for `seconds`; answers its status counts. */
function startFlood(url: string, connections: number, seconds: number) {
  const bin = path.join(PROJECT_ROOT, 'node_modules', 'autocannon', 'autocannon.js');
  const body = JSON.stringify({ username: 'admin', password: 'wrong-guess-1' });
  const child = spawn(
    process.execPath,
    [
      bin,
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-t',
      '60',
      '-m',
      'POST',
      '-H',
      'Content-Type=application/json',
      '-b',
      body,
      '-j',
      `${url}/rest/V1/integration/admin/token`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<{ status: Record<string, number>; rps: number }>((resolve, reject) => {
    child.on('exit', () => {
      try {
        const json = JSON.parse(out) as {
          statusCodeStats?: Record<string, { count: number }>;
          requests: { average: number };
        };
        const status: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(json.statusCodeStats ?? {})) status[code] = count;
        resolve({ status, rps: round(json.requests.average, 1) });
      } catch (error) {
        reject(new Error(`the flood process printed no result: ${String(error)} ${out.slice(0, 500)}`));
      }
    });
  });
  return { done };
}

async function runOne(
  server: string,
  root: string | undefined,
  mode: string,
  env: Record<string, string>,
  options: LoginFloodOptions,
): Promise<FloodRun> {
  const database = await createBenchDatabase(options.dir, `login-flood-${server}-${mode}`);
  const projectRoot = root ?? PROJECT_ROOT;
  try {
    cli(projectRoot, database.url, 'setup:upgrade');
    cli(projectRoot, database.url, 'admin:user:create', '--username', 'admin', '--password', 'secret123');
    const token = cli(projectRoot, database.url, 'integration:token:create', '--name', 'flood-bench', '--all-stores');
    const proc = await ServerProcess.start(server === 'service' ? 'service' : 'baseline', {
      databaseUrl: database.url,
      root,
      env,
    });
    try {
      const counter = { value: 0 };
      const get = (seconds: number) =>
        drive({
          url: proc.url,
          token,
          connections: 4,
          duration: seconds,
          counter,
          next: () => ({ method: 'GET', path: '/rest/all/V1/store/storeViews' }),
        });
      const health = (seconds: number) =>
        drive({
          url: proc.url,
          token,
          connections: 4,
          duration: seconds,
          counter,
          next: () => ({ method: 'GET', path: '/health' }),
        });
      const ramp = options.rampSeconds ?? 2;
      await get(Math.min(1, options.seconds)); // warm-up
      const getUnloaded = await get(options.seconds);
      const healthUnloaded = await health(options.seconds);
      // Lasts the two measurements and a little more (autocannon's CLI prints its result only at its end).
      const flood = startFlood(proc.url, options.floodConnections, Math.ceil(ramp + options.seconds * 2 + 1));
      await new Promise((resolve) => setTimeout(resolve, ramp * 1000)); // the flood at full strength first
      const getFlood = await get(options.seconds);
      const healthFlood = await health(options.seconds);
      const floodResult = await flood.done;
      const run: FloodRun = {
        server,
        mode,
        getUnloaded: measure(getUnloaded),
        getFlood: measure(getFlood),
        healthUnloaded: measure(healthUnloaded),
        healthFlood: measure(healthFlood),
        floodStatus: floodResult.status,
        floodRps: floodResult.rps,
      };
      options.log(
        `${server} (${mode}): GET p50 ${run.getUnloaded.p50} -> ${run.getFlood.p50} ms, p99 ${run.getUnloaded.p99} -> ${run.getFlood.p99} ms; /health p50 ${run.healthUnloaded.p50} -> ${run.healthFlood.p50} ms; flood ${JSON.stringify(run.floodStatus)}`,
      );
      return run;
    } finally {
      await proc.stop();
    }
  } finally {
    await database.release();
  }
}

export async function runLoginFlood(options: LoginFloodOptions): Promise<LoginFloodReport> {
  const runs: FloodRun[] = [];
  runs.push(
    await runOne('service', undefined, 'worst', { ADMIN_TOKEN_RATE_LIMIT: '0', ADMIN_LOCKOUT_FAILURES: '0' }, options),
  );
  runs.push(await runOne('service', undefined, 'defaults', {}, options));
  if (options.baselineRoot)
    runs.push(
      await runOne(`baseline ${options.baselineRef ?? ''}`.trim(), options.baselineRoot, 'no limits', {}, options),
    );
  return { database: databaseUrl().split(':')[0]!, runs };
}

/** A latency, or what happened when nothing was answered within the run. */
const cell = (m: FloodMeasure, p: 'p50' | 'p99') => (m.ok === 0 ? 'none answered' : String(m[p]));
const pair = (a: FloodMeasure, b: FloodMeasure, p: 'p50' | 'p99') => `${cell(a, p)} -> ${cell(b, p)}`;
const ratio = (flood: FloodMeasure, unloaded: FloodMeasure, p: 'p50' | 'p99') =>
  flood.ok === 0 ? '∞' : unloaded[p] > 0 ? `${round(flood[p] / unloaded[p], 1)}×` : '-';

export function floodMarkdown(report: LoginFloodReport): string {
  const lines = [
    `Login flood on ${report.database}: 64 connections of wrong passwords; latency of other callers, unloaded -> under the flood (ms)`,
    '',
    '| Server | Mode | auth GET p50 | auth GET p99 | /health p50 | /health p99 | GET p50 ratio | GET p99 ratio | flood answers | flood req/s |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---:|',
  ];
  for (const r of report.runs) {
    lines.push(
      `| ${r.server} | ${r.mode} | ${pair(r.getUnloaded, r.getFlood, 'p50')} | ${pair(r.getUnloaded, r.getFlood, 'p99')} | ${pair(r.healthUnloaded, r.healthFlood, 'p50')} | ${pair(r.healthUnloaded, r.healthFlood, 'p99')} | ${ratio(r.getFlood, r.getUnloaded, 'p50')} | ${ratio(r.getFlood, r.getUnloaded, 'p99')} | ${Object.entries(
        r.floodStatus,
      )
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')} | ${r.floodRps} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
