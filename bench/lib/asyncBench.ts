/**
 * `npm run bench -- --async` (or `npm run bench:async`): the asynchronous web API.
 *
 * 1. Accept rate: bulks of 1000 Add Items elements posted to
 *    `/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item`
 *    (validated, recorded, published) by one client, one bulk at a time.
 * 2. Drain rate: those operations (10,000 by default) run by 1, 2 and 4 consumer processes
 *    (`queue:consumers:start async.operations.all`), on the `db` queue and on RabbitMQ (when
 *    AMQP_URL is set), timed from the moment the first consumer is consuming to the last
 *    operation complete.
 * 3. The same 10,000 Add Items through the synchronous route, with as many concurrent clients as
 *    the largest consumer count: the rate the asynchronous route is compared with.
 *
 * Each run has a fresh database (SQLite file in var/bench/, or DATABASE_URL's server) seeded
 * through the API: 100 recommendations and 100 products; operation k adds product k / 100 to
 * recommendation k % 100, so consecutive operations touch different recommendations.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import knexFactory from 'knex';
import { PROJECT_ROOT } from '../../app/bootstrap/paths.js';
import { databaseUrl } from '../../app/bootstrap/DeploymentConfig.js';
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
  readonly log: (line: string) => void;
}

export interface DrainResult {
  readonly queue: 'db' | 'amqp';
  readonly consumers: number;
  readonly operations: number;
  readonly acceptSeconds: number;
  readonly acceptedPerSecond: number;
  readonly bulkRequestsPerSecond: number;
  readonly drainSeconds: number;
  readonly drainedPerSecond: number;
}

export interface AsyncBenchReport {
  readonly operations: number;
  /** The consumers' batch size (CONSUMER_BATCH_SIZE), or 'default'. */
  readonly batchSize: number | 'default';
  readonly database: string;
  readonly drains: DrainResult[];
  readonly sync: { readonly clients: number; readonly seconds: number; readonly perSecond: number };
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
  const code = await runCli(['node', 'cli', 'integration:token:create', '--name', 'bench-async', '--all-stores'], { out: (l) => out.push(l), err: () => undefined }, { databaseUrl: database.url });
  if (code !== 0) throw new Error('token creation failed');
  const token = out.join('\n').trim().split('\n').pop()!;
  const call = (method: string, url: string, body: unknown) =>
    fetch(`${server.url}${url}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(json);
  const skus = Math.ceil(options.operations / RECOMMENDATIONS);
  for (let s = 0; s < skus; s++) await call('POST', '/rest/all/V1/products', { product: { sku: `ASYNC-${s}`, name: `Async ${s}`, price: 1 } });
  const recommendations: string[] = [];
  for (let r = 0; r < RECOMMENDATIONS; r++) {
    const patient = (await call('POST', '/rest/default/V1/dispensary/patient', { patient: { firstname: 'A', lastname: `B${r}`, email: `p${r}@example.com` } })) as { patient_id: number };
    const rec = (await call('POST', `/rest/default/V1/dispensary/patient/${patient.patient_id}/recommendation`, { recommendation: { items: [] } })) as { recommendation_id: string };
    recommendations.push(rec.recommendation_id);
  }
  return { server, database, token, recommendations };
}

function element(seeded: Seeded, k: number): { recommendationId: string; recommendation: { items: { sku: string; qty: number }[] } } {
  return { recommendationId: seeded.recommendations[k % RECOMMENDATIONS]!, recommendation: { items: [{ sku: `ASYNC-${Math.floor(k / RECOMMENDATIONS)}`, qty: 1 }] } };
}

function spawnConsumer(databaseUrl: string, env: Record<string, string>): { child: ChildProcess; started: Promise<void> } {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'), 'queue:consumers:start', 'async.operations.all'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const started = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('consumer: started')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`consumer exited with ${code}: ${log.slice(-2000)}`)));
  });
  return { child, started };
}

async function drainRun(options: AsyncBenchOptions, queue: 'db' | 'amqp', consumers: number): Promise<DrainResult> {
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
      const elements = Array.from({ length: Math.min(options.bulkSize, options.operations - k) }, (_, i) => element(seeded, k + i));
      const res = await fetch(`${seeded.server.url}${BULK_URL}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${seeded.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(elements),
      });
      const body = (await json(res)) as { errors: boolean };
      if (res.status !== 202 || body.errors) throw new Error(`bulk not accepted: ${JSON.stringify(body).slice(0, 300)}`);
      bulks++;
    }
    const acceptSeconds = (performance.now() - acceptStart) / 1000;

    // 2. Drain, from the first consumer consuming to the last operation complete.
    const spawned = Array.from({ length: consumers }, () => spawnConsumer(seeded.database.url, env));
    children.push(...spawned.map((s) => s.child));
    await Promise.race(spawned.map((s) => s.started));
    const drainStart = performance.now();
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const row = (await knex('magento_operation').whereIn('status', [4, 2]).count({ n: '*' }).first()) as { n: number | string };
      if (Number(row.n) === 0) break;
      if (Date.now() > deadline) throw new Error('drain did not finish in 30 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const failed = (await knex('magento_operation').whereNot('status', 1).count({ n: '*' }).first()) as { n: number | string };
    if (Number(failed.n) !== 0) throw new Error(`${failed.n} operations did not complete`);
    const items = (await knex('dispensary_recommendation_item').count({ n: '*' }).first()) as { n: number | string };
    if (Number(items.n) !== options.operations) throw new Error(`expected ${options.operations} items, found ${items.n}`);
    return {
      queue,
      consumers,
      operations: options.operations,
      acceptSeconds,
      acceptedPerSecond: options.operations / acceptSeconds,
      bulkRequestsPerSecond: bulks / acceptSeconds,
      drainSeconds,
      drainedPerSecond: options.operations / drainSeconds,
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))));
    await knex.destroy();
    await seeded.server.stop();
    await seeded.database.release();
    if (queue === 'amqp') await deleteTopology(options.amqpUrl!, prefix);
  }
}


async function syncRun(options: AsyncBenchOptions, clients: number): Promise<AsyncBenchReport['sync']> {
  const seeded = await seedRun(options, 'async-sync', { AMQP_URL: '' });
  try {
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
    return { clients, seconds, perSecond: options.operations / seconds };
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
        const code = await runCli(['node', 'cli', 'queue:consumers:start', 'async.operations.all', '--max-messages', String(n)], { out: () => undefined, err: (l) => err.push(l) }, {
          databaseUrl: seeded.database.url,
          queuePrefix: prefix,
          amqpUrl: null,
        });
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

export async function runAsyncBench(options: AsyncBenchOptions): Promise<AsyncBenchReport> {
  const drains: DrainResult[] = [];
  const queues: ('db' | 'amqp')[] = options.amqpUrl ? ['db', 'amqp'] : ['db'];
  if (!options.amqpUrl) options.log('AMQP_URL is not set: RabbitMQ runs skipped');
  for (const queue of queues) {
    for (const consumers of options.consumerCounts) {
      const result = await drainRun(options, queue, consumers);
      options.log(
        `${queue} queue, ${consumers} consumer(s): accepted ${result.acceptedPerSecond.toFixed(0)} ops/s (${result.bulkRequestsPerSecond.toFixed(2)} bulk requests/s), drained ${result.drainedPerSecond.toFixed(0)} ops/s (${result.drainSeconds.toFixed(1)} s)`,
      );
      drains.push(result);
    }
  }
  const clients = Math.max(...options.consumerCounts);
  const sync = options.skipSync ? { clients, seconds: 0, perSecond: 0 } : await syncRun(options, clients);
  if (!options.skipSync) options.log(`synchronous route, ${clients} clients: ${sync.perSecond.toFixed(0)} ops/s (${sync.seconds.toFixed(1)} s)`);
  return { operations: options.operations, batchSize: options.batchSize ?? 'default', database: databaseUrl().split(':')[0]!, drains, sync };
}

export function asyncMarkdown(report: AsyncBenchReport): string {
  const lines = [
    `### Asynchronous web API: ${report.operations} Add Items operations (${report.database}, consumer batch size ${report.batchSize})`,
    '',
    '| queue | consumers | accept (ops/s) | bulk requests/s | drain (ops/s) | drain time (s) |',
    '|---|---:|---:|---:|---:|---:|',
    ...report.drains.map(
      (d) => `| ${d.queue} | ${d.consumers} | ${d.acceptedPerSecond.toFixed(0)} | ${d.bulkRequestsPerSecond.toFixed(2)} | ${d.drainedPerSecond.toFixed(0)} | ${d.drainSeconds.toFixed(1)} |`,
    ),
    '',
    report.sync.seconds === 0
      ? 'Synchronous route: not run (--no-sync).'
      : `Synchronous route, same work, ${report.sync.clients} concurrent clients: ${report.sync.perSecond.toFixed(0)} ops/s (${report.sync.seconds.toFixed(1)} s).`,
    '',
  ];
  return lines.join('\n');
}
