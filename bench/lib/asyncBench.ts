/**
 * `npm run bench -- --async` (or `npm run bench:async`): the asynchronous web API.
 *
 * 1. Accept rate: bulks of 1000 Add Items elements posted to
 *    `/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item`
 *    (validated, recorded, published) by one client, one bulk at a time.
 * 2. Drain rate: those operations (10,000 by default) run by 1, 2 and 4 consumer processes
 *    (`queue:consumers:start async.operations.all`), on the `db` queue and on RabbitMQ (when
 *    AMQP_URL is set), timed from the moment the first consumer is consuming to the last
 *    operation complete; and again from the moment every consumer process is up (consuming, or on
 *    SQLite standing by for the lease), so that the others' start-up (a second of CPU each, taken
 *    from the first on 2 cores) is not charged to the drain ("all up").
 * 3. The same 10,000 Add Items through the synchronous route, with as many concurrent clients as
 *    the largest consumer count: the rate the asynchronous route is compared with.
 *
 * Each run has a fresh database (SQLite file in var/bench/, or DATABASE_URL's server) seeded
 * through the API: 100 recommendations and 100 products; operation k adds product k / 100 to
 * recommendation k % 100, so consecutive operations touch different recommendations.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { databaseUrl } from '../../app/bootstrap/config/DeploymentConfig.js';
import { runCli } from '../../app/cli/Cli.js';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';
import { deleteTopology } from '../../app/framework/queue/AmqpQueueConnection.js';
import { ServerProcess } from './proc.js';
import { createBenchDatabase, type BenchDatabase } from './seed.js';
import { StatementCounter } from './statementCounter.js';

export interface AsyncBenchOptions {
  readonly dir: string;
  readonly operations: number;
  readonly bulkSize: number;
  readonly consumerCounts: readonly number[];
  readonly amqpUrl: string | null;
  /** CONSUMER_BATCH_SIZE of the consumers; undefined: their default. */
  readonly batchSize?: number;
  /** Leave out the synchronous route's run (`--no-sync`, when only consumer settings are compared). */
  readonly skipSync?: boolean;
  /**
   * `--baseline-consumers <dir>`: another checkout (built) whose consumer processes drain too, each
   * right after this checkout's on the same kind of run: before and after under the same load.
   */
  readonly baselineConsumersRoot?: string;
  /** `--profile-consumers`: each consumer process runs under node --cpu-prof, its profile written here. */
  readonly profileConsumersDir?: string;
  /** Every drain and the synchronous run repeated this many times (interleaved), the best kept (`--rounds`). */
  readonly rounds?: number;
  readonly log: (line: string) => void;
}

export interface DrainResult {
  readonly queue: 'db' | 'amqp';
  readonly consumers: number;
  /** Whose consumer processes drained: this checkout's, or `--baseline-consumers`' (before/after in one run). */
  readonly consumersFrom: 'this checkout' | 'baseline';
  readonly operations: number;
  readonly acceptSeconds: number;
  readonly acceptedPerSecond: number;
  readonly bulkRequestsPerSecond: number;
  readonly drainSeconds: number;
  readonly drainedPerSecond: number;
  /**
   * The drain rate from the moment every consumer process was up (consuming, or on SQLite standing
   * by), so the others' start-up is not charged to it; undefined when a quarter of the operations
   * or fewer were left by then.
   */
  readonly steadyPerSecond?: number;
  /** CPU ms the consumer processes used per operation (all of them, from their start-up's end), Linux only. */
  readonly consumerCpuMsPerOperation?: number;
  /** Seconds from the first consumer consuming to the last one up. */
  readonly allUpAfterSeconds?: number;
  /** 1-minute load average when the run started (os.loadavg: the bench's own processes included). */
  readonly loadAverage: number;
  /** Each round's drain rate, in order (the best is drainedPerSecond). */
  readonly roundRates?: number[];
  /** Each round's steady rate (0: not measured in that round); the best is steadyPerSecond. */
  readonly steadyRoundRates?: number[];
}

/** One request carrying every operation (`--one-bulk`): what the service answered and how long it took. */
export interface OneBulkResult {
  readonly operations: number;
  readonly status: number;
  readonly seconds: number;
  readonly loadAverage: number;
  /** The refusal's message when not 202. */
  readonly message?: string;
}

export interface AsyncBenchReport {
  readonly operations: number;
  /** The consumers' batch size (CONSUMER_BATCH_SIZE), or 'default'. */
  readonly batchSize: number | 'default';
  readonly database: string;
  readonly rounds: number;
  readonly drains: DrainResult[];
  readonly sync: {
    readonly clients: number;
    readonly seconds: number;
    readonly perSecond: number;
    readonly loadAverage: number;
    readonly roundRates?: number[];
  };
  readonly oneBulk?: OneBulkResult[];
}

const RECOMMENDATIONS = 100;
const BULK_URL = '/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item';

interface Seeded {
  readonly server: ServerProcess;
  readonly database: BenchDatabase;
  readonly token: string;
  readonly recommendations: string[];
}

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  if (res.status >= 300) throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

async function seedRun(options: AsyncBenchOptions, name: string, env: Record<string, string>): Promise<Seeded> {
  const database = await createBenchDatabase(options.dir, name);
  const server = await ServerProcess.start('service', { databaseUrl: database.url, env });
  const out: string[] = [];
  const code = await runCli(
    ['node', 'cli', 'integration:token:create', '--name', 'bench-async', '--all-stores'],
    { out: (l) => out.push(l), err: () => undefined },
    { databaseUrl: database.url },
  );
  if (code !== 0) throw new Error('token creation failed');
  const token = out.join('\n').trim().split('\n').pop()!;
  const call = (method: string, url: string, body: unknown) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(json);
  const skus = Math.ceil(options.operations / RECOMMENDATIONS);
  for (let s = 0; s < skus; s++)
    await call('POST', '/rest/all/V1/products', { product: { sku: `ASYNC-${s}`, name: `Async ${s}`, price: 1 } });
  const recommendations: string[] = [];
  for (let r = 0; r < RECOMMENDATIONS; r++) {
    const patient = (await call('POST', '/rest/default/V1/dispensary/patient', {
      patient: { firstname: 'A', lastname: `B${r}`, email: `p${r}@example.com` },
    })) as { patient_id: number };
    const rec = (await call('POST', `/rest/default/V1/dispensary/patient/${patient.patient_id}/recommendation`, {
      recommendation: { items: [] },
    })) as { recommendation_id: string };
    recommendations.push(rec.recommendation_id);
  }
  return { server, database, token, recommendations };
}

function element(
  seeded: Seeded,
  k: number,
): { recommendationId: string; recommendation: { items: { sku: string; qty: number }[] } } {
  return {
    recommendationId: seeded.recommendations[k % RECOMMENDATIONS]!,
    recommendation: { items: [{ sku: `ASYNC-${Math.floor(k / RECOMMENDATIONS)}`, qty: 1 }] },
  };
}

function spawnConsumer(
  databaseUrl: string,
  env: Record<string, string>,
  profileDir?: string,
  root = PROJECT_ROOT,
): { child: ChildProcess; started: Promise<void>; up: Promise<void>; upCpuMs: () => number | undefined } {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(
    process.execPath,
    [...profile, path.join(root, 'dist', 'app', 'bin', 'cli.js'), 'queue:consumers:start', 'async.operations.all'],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  let upCpu: number | undefined;
  let resolveUp: () => void = () => undefined;
  // Up: consuming, or (SQLite) standing by for the lease: its start-up is over either way.
  const up = new Promise<void>((resolve) => (resolveUp = resolve));
  const onUp = (): void => {
    upCpu ??= cpuMs(child.pid);
    resolveUp();
  };
  const started = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('consumer: started')) resolve();
      if (log.includes('consumer: started') || log.includes('consumer: standing by')) onUp();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`consumer exited with ${code}: ${log.slice(-2000)}`)));
  });
  started.catch(() => undefined);
  return { child, started, up, upCpuMs: () => upCpu };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After the command: state is field 3, utime 14 and stime 15 (clock ticks of 10 ms).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function drainRun(
  options: AsyncBenchOptions,
  queue: 'db' | 'amqp',
  consumers: number,
  consumerRoot?: string,
): Promise<DrainResult> {
  const prefix = `bench.${process.pid}.${randomBytes(3).toString('hex')}.`;
  const env: Record<string, string> = { QUEUE_PREFIX: prefix, AMQP_URL: queue === 'amqp' ? options.amqpUrl! : '' };
  if (options.batchSize !== undefined) env.CONSUMER_BATCH_SIZE = String(options.batchSize);
  const seeded = await seedRun(options, `async-${queue}-${consumers}`, env);
  const knex = knexFactory({ ...parseDatabaseUrl(seeded.database.url).config, pool: { min: 0, max: 1 } });
  const children: ChildProcess[] = [];
  try {
    // 1. Accept: every bulk recorded and queued before any consumer runs.
    const acceptStart = performance.now();
    let bulks = 0;
    for (let k = 0; k < options.operations; k += options.bulkSize) {
      const elements = Array.from({ length: Math.min(options.bulkSize, options.operations - k) }, (_, i) =>
        element(seeded, k + i),
      );
      const res = await fetch(`${seeded.server.url}${BULK_URL}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${seeded.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(elements),
      });
      const body = (await json(res)) as { errors: boolean };
      if (res.status !== 202 || body.errors)
        throw new Error(`bulk not accepted: ${JSON.stringify(body).slice(0, 300)}`);
      bulks++;
    }
    const acceptSeconds = (performance.now() - acceptStart) / 1000;
    const loadAverage = os.loadavg()[0]!;

    // 2. Drain, from the first consumer consuming to the last operation complete.
    const spawned = Array.from({ length: consumers }, () =>
      spawnConsumer(seeded.database.url, env, options.profileConsumersDir, consumerRoot),
    );
    children.push(...spawned.map((s) => s.child));
    await Promise.race(spawned.map((s) => s.started));
    const drainStart = performance.now();
    // The other consumers may still be starting (their start-up takes CPU from the first one):
    // the steady rate counts from the moment every one of them is up.
    let allUp = false;
    void Promise.all(spawned.map((s) => s.up)).then(() => (allUp = true));
    let steady: { start: number; open: number } | undefined;
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const upNow = allUp;
      const row = (await knex('magento_operation').whereIn('status', [4, 2]).count({ n: '*' }).first()) as {
        n: number | string;
      };
      if (upNow && !steady) steady = { start: performance.now(), open: Number(row.n) };
      if (Number(row.n) === 0) break;
      if (Date.now() > deadline) throw new Error('drain did not finish in 30 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const drainEnd = performance.now();
    // The consumers' own CPU from their start-up's end to the drain's: the work per operation,
    // which a busy machine stretches in time far less than it stretches the wall clock.
    const cpu = spawned.map((s) => [s.upCpuMs(), cpuMs(s.child.pid)] as const);
    const consumerCpuMsPerOperation = cpu.every(([a, b]) => a !== undefined && b !== undefined)
      ? cpu.reduce((sum, [a, b]) => sum + (b! - a!), 0) / options.operations
      : undefined;
    const drainSeconds = (drainEnd - drainStart) / 1000;
    // Undefined when the queue was (nearly) drained before the last consumer was up.
    const steadyPerSecond =
      steady && steady.open >= options.operations / 4 ? steady.open / ((drainEnd - steady.start) / 1000) : undefined;
    const failed = (await knex('magento_operation').whereNot('status', 1).count({ n: '*' }).first()) as {
      n: number | string;
    };
    if (Number(failed.n) !== 0) throw new Error(`${failed.n} operations did not complete`);
    const items = (await knex('dispensary_recommendation_item').count({ n: '*' }).first()) as { n: number | string };
    if (Number(items.n) !== options.operations)
      throw new Error(`expected ${options.operations} items, found ${items.n}`);
    return {
      queue,
      consumers,
      consumersFrom: consumerRoot ? 'baseline' : 'this checkout',
      operations: options.operations,
      acceptSeconds,
      acceptedPerSecond: options.operations / acceptSeconds,
      bulkRequestsPerSecond: bulks / acceptSeconds,
      drainSeconds,
      drainedPerSecond: options.operations / drainSeconds,
      steadyPerSecond,
      allUpAfterSeconds: steady ? (steady.start - drainStart) / 1000 : undefined,
      consumerCpuMsPerOperation,
      loadAverage,
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve))),
      ),
    );
    await knex.destroy();
    await seeded.server.stop();
    await seeded.database.release();
    if (queue === 'amqp') await deleteTopology(options.amqpUrl!, prefix);
  }
}

async function syncRun(options: AsyncBenchOptions, clients: number): Promise<AsyncBenchReport['sync']> {
  const seeded = await seedRun(options, 'async-sync', { AMQP_URL: '' });
  try {
    const loadAverage = os.loadavg()[0]!;
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let k = next++; k < options.operations; k = next++) {
          const { recommendationId, recommendation } = element(seeded, k);
          await json(
            await fetch(`${seeded.server.url}/rest/default/V1/dispensary/recommendation/${recommendationId}/item`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${seeded.token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ recommendation }),
            }),
          );
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    return { clients, seconds, perSecond: options.operations / seconds, loadAverage };
  } finally {
    await seeded.server.stop();
    await seeded.database.release();
  }
}

/**
 * `--one-bulk`: the accept path with every operation in ONE bulk request (the issue's "10,000
 * operations accepted in one bulk request"), on the `db` queue: posted `rounds` times to one
 * server (a body limit large enough for it), each timed from sending to the 202 (or refusal).
 */
export async function oneBulkRun(options: AsyncBenchOptions): Promise<OneBulkResult[]> {
  const env: Record<string, string> = {
    QUEUE_PREFIX: `bench.${process.pid}.${randomBytes(3).toString('hex')}.`,
    AMQP_URL: '',
    BODY_LIMIT: String(64 * 1024 * 1024),
  };
  const seeded = await seedRun(options, 'async-one-bulk', env);
  const results: OneBulkResult[] = [];
  try {
    const body = JSON.stringify(Array.from({ length: options.operations }, (_, k) => element(seeded, k)));
    for (let round = 0; round < (options.rounds ?? 1); round++) {
      const loadAverage = os.loadavg()[0]!;
      const start = performance.now();
      const res = await fetch(`${seeded.server.url}${BULK_URL}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${seeded.token}`, 'Content-Type': 'application/json' },
        body,
      });
      const text = await res.text();
      const seconds = (performance.now() - start) / 1000;
      const parsed = (text ? JSON.parse(text) : {}) as {
        message?: string;
        errors?: boolean;
        parameters?: Record<string, unknown>;
      };
      let message: string | undefined;
      if (res.status !== 202 || parsed.errors) {
        message = (parsed.message ?? text.slice(0, 200)).replace(/%(\w+)/g, (_, name: string) =>
          String(parsed.parameters?.[name] ?? `%${name}`),
        );
      }
      results.push({ operations: options.operations, status: res.status, seconds, loadAverage, message });
      options.log(
        `one bulk request of ${options.operations} operations: HTTP ${res.status} in ${seconds.toFixed(3)} s (load ${loadAverage.toFixed(2)})${message ? `: ${message}` : ''}`,
      );
    }
    return results;
  } finally {
    await seeded.server.stop();
    await seeded.database.release();
  }
}

export interface StatementProbe {
  readonly database: string;
  /** Statements the consumer process sent per operation on the db queue (claim, load, BEGIN ... COMMIT, ack). */
  readonly perOperation: number;
  /** The same, by the statement's first words, per operation. */
  readonly bySql: Record<string, number>;
}

/**
 * `--statements`: how many statements the db-queue consumer sends per Add Items operation,
 * counted at the driver in this process (bench/lib/statementCounter.ts). Two consumer runs of
 * `small` and `large` operations, so the start-up's own statements cancel out.
 */
export async function runStatementProbe(options: AsyncBenchOptions, small = 40, large = 240): Promise<StatementProbe> {
  const prefix = `bench.${process.pid}.${randomBytes(3).toString('hex')}.`;
  const env: Record<string, string> = { QUEUE_PREFIX: prefix, AMQP_URL: '' };
  const seeded = await seedRun({ ...options, operations: small + large }, 'async-statements', env);
  try {
    const elements = Array.from({ length: small + large }, (_, k) => element(seeded, k));
    const res = await fetch(`${seeded.server.url}${BULK_URL}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${seeded.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(elements),
    });
    if (res.status !== 202) throw new Error(`bulk not accepted: ${await res.text()}`);
    const consume = async (n: number): Promise<StatementCounter> => {
      const counter = new StatementCounter().install();
      try {
        const err: string[] = [];
        const code = await runCli(
          ['node', 'cli', 'queue:consumers:start', 'async.operations.all', '--max-messages', String(n)],
          { out: () => undefined, err: (l) => err.push(l) },
          {
            databaseUrl: seeded.database.url,
            queuePrefix: prefix,
            amqpUrl: null,
          },
        );
        if (code !== 0) throw new Error(`consumer failed: ${err.join('\n')}`);
      } finally {
        counter.uninstall();
      }
      return counter;
    };
    const first = await consume(small);
    const second = await consume(large);
    const bySql: Record<string, number> = {};
    for (const [sql, n] of second.sql) {
      const perOp = (n - (first.sql.get(sql) ?? 0)) / (large - small);
      if (Math.abs(perOp) >= 0.005) bySql[sql] = Number(perOp.toFixed(3));
    }
    return { database: seeded.database.dialect, perOperation: (second.count - first.count) / (large - small), bySql };
  } finally {
    await seeded.server.stop();
    await seeded.database.release();
  }
}

/**
 * Every drain (queue x consumer count) and the synchronous run, `rounds` times interleaved (round 1
 * of everything, then round 2, ...), so a burst of load from elsewhere hits one round of each
 * rather than every round of one; each keeps its best round.
 */
export async function runAsyncBench(options: AsyncBenchOptions): Promise<AsyncBenchReport> {
  const rounds = Math.max(1, options.rounds ?? 1);
  const best = new Map<string, DrainResult>();
  const rates = new Map<string, number[]>();
  const steadyRates = new Map<string, number[]>();
  const cpuRounds = new Map<string, number[]>();
  const queues: ('db' | 'amqp')[] = options.amqpUrl ? ['db', 'amqp'] : ['db'];
  if (!options.amqpUrl) options.log('AMQP_URL is not set: RabbitMQ runs skipped');
  const clients = Math.max(...options.consumerCounts);
  let sync: AsyncBenchReport['sync'] = { clients, seconds: 0, perSecond: 0, loadAverage: 0 };
  const syncRates: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const queue of queues) {
      for (const consumers of options.consumerCounts) {
        for (const root of options.baselineConsumersRoot ? [undefined, options.baselineConsumersRoot] : [undefined]) {
          const result = await drainRun(options, queue, consumers, root);
          options.log(
            `round ${round}, ${queue} queue, ${consumers} consumer(s)${root ? ' (baseline)' : ''}: accepted ${result.operations} in ${result.acceptSeconds.toFixed(3)} s (${result.acceptedPerSecond.toFixed(0)} ops/s, ${result.bulkRequestsPerSecond.toFixed(2)} bulk requests/s), drained ${result.drainedPerSecond.toFixed(0)} ops/s (${result.drainSeconds.toFixed(2)} s; all up after ${result.allUpAfterSeconds?.toFixed(2) ?? '-'} s, from then ${result.steadyPerSecond?.toFixed(0) ?? '-'} ops/s; consumer CPU ${result.consumerCpuMsPerOperation?.toFixed(3) ?? '-'} ms/op), load ${result.loadAverage.toFixed(2)}`,
          );
          const key = `${queue} ${consumers}${root ? ' baseline' : ''}`;
          rates.set(key, [...(rates.get(key) ?? []), result.drainedPerSecond]);
          steadyRates.set(key, [...(steadyRates.get(key) ?? []), result.steadyPerSecond ?? 0]);
          if (result.consumerCpuMsPerOperation !== undefined)
            cpuRounds.set(key, [...(cpuRounds.get(key) ?? []), result.consumerCpuMsPerOperation]);
          const kept = best.get(key);
          if (!kept || result.drainedPerSecond > kept.drainedPerSecond) best.set(key, result);
        }
      }
    }
    if (!options.skipSync) {
      const run = await syncRun(options, clients);
      syncRates.push(run.perSecond);
      options.log(
        `round ${round}, synchronous route, ${clients} clients: ${run.perSecond.toFixed(0)} ops/s (${run.seconds.toFixed(1)} s), load ${run.loadAverage.toFixed(2)}`,
      );
      if (run.perSecond > sync.perSecond) sync = run;
    }
  }
  const drains = [...best.entries()].map(([key, result]) => {
    const steadyBest = Math.max(...(steadyRates.get(key) ?? [0]));
    const cpu = cpuRounds.get(key);
    return {
      ...result,
      steadyPerSecond: steadyBest > 0 ? steadyBest : undefined,
      roundRates: rates.get(key),
      steadyRoundRates: steadyRates.get(key),
      // The least CPU per operation of the rounds (load from elsewhere only adds to it).
      consumerCpuMsPerOperation: cpu?.length ? Math.min(...cpu) : undefined,
    };
  });
  if (!options.skipSync) sync = { ...sync, roundRates: syncRates };
  return {
    operations: options.operations,
    batchSize: options.batchSize ?? 'default',
    database: databaseUrl().split(':')[0]!,
    rounds,
    drains,
    sync,
  };
}

export function asyncMarkdown(report: AsyncBenchReport): string {
  const sync = report.sync.perSecond;
  const lines = [
    `### Asynchronous web API: ${report.operations} Add Items operations (${report.database}, consumer batch size ${report.batchSize}, best of ${report.rounds} round(s))`,
    '',
    '| queue | consumers | from | accept (s) | accept (ops/s) | drain (ops/s) | drain time (s) | drain ÷ synchronous | all up: drain (ops/s) | all up ÷ synchronous | consumer CPU (ms/op, least) | load avg (1 min) | rounds (ops/s) |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...report.drains.map(
      (d) =>
        `| ${d.queue} | ${d.consumers} | ${d.consumersFrom} | ${d.acceptSeconds.toFixed(3)} | ${d.acceptedPerSecond.toFixed(0)} | ${d.drainedPerSecond.toFixed(0)} | ${d.drainSeconds.toFixed(2)} | ${sync > 0 ? `${(d.drainedPerSecond / sync).toFixed(2)}×` : '-'} | ${d.steadyPerSecond?.toFixed(0) ?? '-'} | ${sync > 0 && d.steadyPerSecond ? `${(d.steadyPerSecond / sync).toFixed(2)}×` : '-'} | ${d.consumerCpuMsPerOperation?.toFixed(3) ?? '-'} | ${d.loadAverage.toFixed(2)} | ${(d.roundRates ?? []).map((r) => r.toFixed(0)).join(', ')} |`,
    ),
    '',
    report.sync.seconds === 0
      ? 'Synchronous route: not run (--no-sync).'
      : `Synchronous route, same work, ${report.sync.clients} concurrent clients: ${sync.toFixed(0)} ops/s (${report.sync.seconds.toFixed(1)} s, load ${report.sync.loadAverage.toFixed(2)}; rounds ${(report.sync.roundRates ?? []).map((r) => r.toFixed(0)).join(', ')}).`,
    '',
  ];
  for (const one of report.oneBulk ?? []) {
    lines.push(
      `One bulk request of ${one.operations} operations (db queue): HTTP ${one.status} in ${one.seconds.toFixed(3)} s (load ${one.loadAverage.toFixed(2)})${one.message ? `: ${one.message.replace(/\.$/, '')}` : ''}.`,
    );
  }
  if (report.oneBulk?.length) lines.push('');
  return lines.join('\n');
}
