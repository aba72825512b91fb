/**
 * `npm run bench -- --scenario events [--smoke] [--events N] [--entities N]` (issue 26): event
 * delivery across entities, on the database of DATABASE_URL (PostgreSQL for the figures in
 * BENCHMARKS.md).
 *
 * `events` committed Add Items events over `entities` recommendations (events / entities each,
 * one subscription) wait in the outbox, held (next attempt far ahead). For 1 and then 2
 * `queue:consumers:start event.delivery` processes: the consumers are started and said
 * `consumer: started`, then one UPDATE makes every event due at once (the "commit"); a loopback
 * receiver (this process, answers 204) notes when each event's first call arrives. Reported:
 * events/s (events / the time from that commit to the last first arrival) and the p50/p99 of
 * commit-to-arrival. A backlog released at once measures how fast consumers drain it, which is
 * what a second consumer should speed up; its p99 is close to the drain time by construction.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Application } from '../../app/bootstrap/Application.js';
import { PROJECT_ROOT } from '../../app/bootstrap/paths.js';
import { allStoresToken, createBenchDatabase } from './seed.js';
import { round } from './stats.js';

export interface EventsBenchOptions {
  readonly dir: string;
  readonly events: number;
  readonly entities: number;
  /** How long the receiver takes to answer each call (0: at once). */
  readonly receiverDelayMs: number;
  readonly log: (line: string) => void;
}

export interface EventsRun {
  readonly consumers: number;
  readonly events: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Most calls open at the receiver at once. */
  readonly peakParallel: number;
  readonly loadBefore: number[];
  readonly loadAfter: number[];
}

export interface EventsBenchReport {
  readonly database: string;
  readonly events: number;
  readonly entities: number;
  readonly cpus: number;
  readonly runs: EventsRun[];
  /** events/s with 2 consumers / with 1. */
  readonly speedup: number;
}

const SECRET = `whsec_${Buffer.from('benchmark secret of 32 bytes!!!!').toString('base64')}`;
const HELD = 8_000_000_000_000; // a next attempt far ahead: not due until the run releases it

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const load = () => os.loadavg().map((v) => round(v, 2));

async function call(port: number, method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Runs `task` for 0..n-1, at most `width` at once. */
async function pool(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

export async function runEventsBench(options: EventsBenchOptions): Promise<EventsBenchReport> {
  const { log } = options;
  const database = await createBenchDatabase(options.dir, 'events');
  const settings = { databaseUrl: database.url };
  const app = await Application.create({ ...settings });
  const arrivals = new Map<string, number>();
  // Calls open at the receiver at once: how many deliveries (entities) the consumers run in parallel.
  let open = 0;
  let peak = 0;
  const receiver = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, Date.now());
    peak = Math.max(peak, ++open);
    req.resume();
    req.on('end', () => {
      const answer = () => {
        open--;
        res.writeHead(204).end();
      };
      if (options.receiverDelayMs > 0) setTimeout(answer, options.receiverDelayMs);
      else answer();
    });
  });
  const server = app.http().listen(0, '127.0.0.1');
  const children: ChildProcess[] = [];
  try {
    await app.setupUpgrade();
    const token = await allStoresToken(settings);
    if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.address() as AddressInfo).port;

    for (const sku of ['EB-1', 'EB-2']) {
      const saved = await call(port, 'POST', '/rest/all/V1/products', token, {
        product: { sku, name: sku, price: 1, status: 1, type_id: 'simple', attribute_set_id: 4 },
      });
      if (saved.status !== 200) throw new Error(`product: ${JSON.stringify(saved.body)}`);
    }
    const patient = await call(port, 'POST', '/rest/default/V1/dispensary/patient', token, {
      patient: { firstname: 'Bench', lastname: 'Events', email: 'events@example.com' },
    });
    const patientId = (patient.body as { patient_id: number }).patient_id;
    const recommendations: string[] = [];
    for (let i = 0; i < options.entities; i++) {
      const created = await call(
        port,
        'POST',
        `/rest/default/V1/dispensary/patient/${patientId}/recommendation`,
        token,
        {
          recommendation: { items: [{ sku: 'EB-1', qty: 1 }] },
        },
      );
      if (created.status !== 200) throw new Error(`recommendation: ${JSON.stringify(created.body)}`);
      recommendations.push((created.body as { recommendation_id: string }).recommendation_id);
    }
    const subscribed = await call(port, 'POST', '/rest/all/V1/eventing/eventSubscribe', token, {
      event: {
        name: 'observer.dispensary_recommendation_items_add_after',
        destination: `http://127.0.0.1:${receiverPort}/events`,
        secret: SECRET,
        fields: [{ name: 'recommendation.recommendation_id' }],
      },
    });
    if (subscribed.status !== 200) throw new Error(`eventSubscribe: ${JSON.stringify(subscribed.body)}`);
    // The events: round-robin over the recommendations, so each entity's chain has events / entities.
    await pool(options.events, 8, async (i) => {
      const id = recommendations[i % recommendations.length]!;
      const res = await call(port, 'POST', `/rest/default/V1/dispensary/recommendation/${id}/item`, token, {
        recommendation: { items: [{ sku: 'EB-2', qty: 1 }] },
      });
      if (res.status !== 200) throw new Error(`Add Items: ${res.status} ${JSON.stringify(res.body)}`);
    });
    const recorded = Number(((await app.knex('event_outbox').count({ n: '*' })) as { n: number | string }[])[0]!.n);
    if (recorded !== options.events) throw new Error(`${recorded} events recorded, not ${options.events}`);
    log(`${options.events} events over ${options.entities} recommendations recorded (${database.dialect})`);

    const runs: EventsRun[] = [];
    for (const consumers of [1, 2]) {
      await app.knex('event_outbox').update({
        status: 'pending',
        attempts: 0,
        lease_until: 0,
        lease_token: null,
        next_attempt_at: HELD,
        delivered_at: null,
      });
      await app
        .knex('queue_message')
        .delete()
        .catch(() => undefined);
      arrivals.clear();
      peak = 0;
      const ready: Promise<void>[] = [];
      for (let i = 0; i < consumers; i++) {
        const child = spawn(
          process.execPath,
          [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'), 'queue:consumers:start', 'event.delivery'],
          {
            cwd: PROJECT_ROOT,
            env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
            stdio: ['ignore', 'ignore', 'pipe'], // the CLI logs to stderr
          },
        );
        children.push(child);
        ready.push(
          new Promise<void>((resolve, reject) => {
            let seen = '';
            const onData = (chunk: Buffer) => {
              seen = (seen + chunk.toString()).slice(-4096);
              if (seen.includes('consumer: started')) {
                child.stderr!.off('data', onData);
                child.stderr!.resume(); // the rest (a line per delivery) is read and dropped
                resolve();
              }
            };
            child.stderr!.on('data', onData);
            child.once('exit', (code) => reject(new Error(`consumer exited (${code}) before it started`)));
          }),
        );
      }
      await Promise.all(ready);
      const loadBefore = load();
      // The "commit": every event due at once.
      await app.knex('event_outbox').update({ next_attempt_at: 0 });
      const commit = Date.now();
      const deadline = commit + 600_000;
      while (arrivals.size < options.events) {
        if (Date.now() > deadline) throw new Error(`${arrivals.size} of ${options.events} delivered in 10 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const latencies = [...arrivals.values()].map((at) => at - commit).sort((a, b) => a - b);
      const seconds = (latencies[latencies.length - 1]! || 1) / 1000;
      for (const child of children.splice(0)) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      const run: EventsRun = {
        consumers,
        events: options.events,
        seconds: round(seconds, 2),
        perSecond: round(options.events / seconds, 1),
        p50Ms: round(percentile(latencies, 50), 0),
        p99Ms: round(percentile(latencies, 99), 0),
        peakParallel: peak,
        loadBefore,
        loadAfter: load(),
      };
      runs.push(run);
      log(
        `${consumers} consumer(s): ${run.events} events in ${run.seconds} s (${run.perSecond}/s), commit to delivery p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, at most ${run.peakParallel} calls at once; load ${loadBefore.join(' ')} -> ${run.loadAfter.join(' ')}`,
      );
    }
    return {
      database: database.dialect,
      events: options.events,
      entities: options.entities,
      cpus: os.cpus().length,
      runs,
      speedup: round(runs[1]!.perSecond / runs[0]!.perSecond, 2),
    };
  } finally {
    for (const child of children) child.kill('SIGKILL');
    server.close();
    receiver.close();
    await app.close();
    await database.release();
  }
}

export function eventsMarkdown(report: EventsBenchReport): string {
  return [
    `### Event delivery across entities (${report.database}, ${report.events} events over ${report.entities} recommendations, ${report.cpus} CPUs)`,
    '',
    '| delivery consumers | events | seconds | events/s | commit to delivery p50 ms | p99 ms | calls at once, at most | load average before → after |',
    '|---|---|---|---|---|---|---|---|',
    ...report.runs.map(
      (r) =>
        `| ${r.consumers} | ${r.events} | ${r.seconds} | ${r.perSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.peakParallel} | ${r.loadBefore.join(', ')} → ${r.loadAfter.join(', ')} |`,
    ),
    '',
    `2 consumers / 1: ${report.speedup}x.`,
    '',
  ].join('\n');
}
