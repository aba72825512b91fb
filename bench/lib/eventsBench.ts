/**
 * `npm run bench -- --scenario events [--smoke] [--events N] [--entities N] [--rounds N]
 * [--receiver-delay-ms MS] [--profile-consumers] [--statements]` (issue 26): event delivery across
 * entities, on the database of DATABASE_URL (PostgreSQL for the figures in BENCHMARKS.md).
 *
 * `events` committed Add Items events over `entities` recommendations (events / entities each,
 * one subscription) wait in the outbox, held (next attempt far ahead). A run: N
 * `queue:consumers:start event.delivery` processes are started and said `consumer: started`, then
 * one UPDATE makes every event due at once (the "commit"); a loopback receiver (this process,
 * answers 204) notes when each event's first call arrives. Reported per run: events/s (events /
 * the time from that commit to the last first arrival) and the p50/p99 of commit-to-arrival. A
 * backlog released at once measures how fast consumers drain it, which is what a second consumer
 * should speed up; its p99 is close to the drain time by construction.
 *
 * One drain takes seconds, so one pair of runs says little on a shared machine (the ratio of four
 * single pairs ranged 0.99x to 1.66x): `rounds` rounds of a 1-consumer and a 2-consumer run,
 * interleaved (1, 2 | 2, 1 | 1, 2 ...: a drift in the machine's load hits both alike), each round's
 * ratio from its own pair; reported are the median ratio and its spread, and the median of each
 * count's events/s, p50 and p99.
 *
 * `--statements`: the consumers run with bench/lib/statementPreload.js and report the statements
 * they sent during the drain (from the commit to the last arrival), per event and by kind.
 * `--profile-consumers`: the consumers run under node --cpu-prof (var/bench/profile/events/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Application } from '../../app/bootstrap/Application.js';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { allStoresToken, createBenchDatabase } from './seed.js';
import { median, round } from './stats.js';
import { summariseProfile } from './profile.js';

export interface EventsBenchOptions {
  readonly dir: string;
  readonly events: number;
  readonly entities: number;
  /** How long the receiver takes to answer each call (0: at once). */
  readonly receiverDelayMs: number;
  /** Rounds of a 1-consumer and a 2-consumer run, interleaved. */
  readonly rounds: number;
  /** Count the consumers' statements during each drain (bench/lib/statementPreload.ts). */
  readonly statements?: boolean;
  /** Run the consumers under node --cpu-prof (var/bench/profile/events/). */
  readonly profileConsumers?: boolean;
  readonly log: (line: string) => void;
}

export interface EventsRun {
  readonly round: number;
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
  /** With --statements: statements the consumers sent during the drain, per event, and the commonest kinds (per event). */
  readonly statementsPerEvent?: number;
  readonly statementKinds?: Record<string, number>;
  /**
   * CPU time per event during the drain, ms (Linux /proc; absent elsewhere): the consumer processes
   * together, this process (the receiver), and the whole machine (every process: PostgreSQL, other
   * work); and the machine's busy share of its CPUs, %.
   */
  readonly cpu?: { consumersMs: number; receiverMs: number; machineMs: number; machineBusyPercent: number };
  /** With --profile-consumers: the consumers' busy (not idle) share of the drain, %, one per consumer. */
  readonly consumerBusyPercent?: number[];
}

export interface EventsSummary {
  readonly consumers: number;
  /** Medians over the rounds. */
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p99MsRange: [number, number];
}

export interface EventsBenchReport {
  readonly database: string;
  readonly events: number;
  readonly entities: number;
  readonly cpus: number;
  readonly receiverDelayMs: number;
  readonly runs: EventsRun[];
  readonly summaries: EventsSummary[];
  /** Each round's events/s with 2 consumers / with 1. */
  readonly ratios: number[];
  /** The median of `ratios`. */
  readonly speedup: number;
}

const SECRET = `whsec_${Buffer.from('benchmark secret of 32 bytes!!!!').toString('base64')}`;
const HELD = 8_000_000_000_000; // a next attempt far ahead: not due until the run releases it

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const load = () => os.loadavg().map((v) => round(v, 2));

/** Linux: the machine's CPU time, busy and in all, in ms (/proc/stat's first line); undefined elsewhere. */
function machineCpu(): { busy: number; total: number } | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const ticks = 1000 / 100; // USER_HZ
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = fields[3]! + fields[4]!; // idle + iowait
  return { busy: (total - idle) * ticks, total: total * ticks };
}

/** Linux: a process's CPU time (user + system), ms; 0 when unknown. */
function processCpuMs(pid: number | undefined): number {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return 0;
  const fields = readFileSync(file, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15) in USER_HZ
}

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
    const profileRoot = path.join(options.dir, 'profile', 'events');
    if (options.profileConsumers) rmSync(profileRoot, { recursive: true, force: true });
    for (let round = 1; round <= options.rounds; round++) {
      for (const consumers of round % 2 === 1 ? [1, 2] : [2, 1]) {
        const run = await drain(round, consumers);
        runs.push(run);
        log(
          `round ${round}, ${consumers} consumer(s): ${run.events} events in ${run.seconds} s (${run.perSecond}/s), commit to delivery p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, at most ${run.peakParallel} calls at once` +
            (run.statementsPerEvent === undefined ? '' : `, ${run.statementsPerEvent} statements per event`) +
            (run.consumerBusyPercent ? `, consumers busy ${run.consumerBusyPercent.join(' / ')} %` : '') +
            (run.cpu
              ? `, CPU ms per event: consumers ${run.cpu.consumersMs}, receiver ${run.cpu.receiverMs}, machine ${run.cpu.machineMs} (machine ${run.cpu.machineBusyPercent} % busy)`
              : '') +
            `; load ${run.loadBefore.join(' ')} -> ${run.loadAfter.join(' ')}`,
        );
      }
    }
    const of = (consumers: number) => runs.filter((run) => run.consumers === consumers);
    const summaries = [1, 2].map((consumers): EventsSummary => {
      const mine = of(consumers);
      const p99s = mine.map((run) => run.p99Ms);
      return {
        consumers,
        perSecond: round(median(mine.map((run) => run.perSecond)), 1),
        p50Ms: round(median(mine.map((run) => run.p50Ms)), 0),
        p99Ms: round(median(p99s), 0),
        p99MsRange: [Math.min(...p99s), Math.max(...p99s)],
      };
    });
    const ratios = of(2).map((two) =>
      round(two.perSecond / of(1).find((one) => one.round === two.round)!.perSecond, 2),
    );
    return {
      database: database.dialect,
      events: options.events,
      entities: options.entities,
      cpus: os.cpus().length,
      receiverDelayMs: options.receiverDelayMs,
      runs,
      summaries,
      ratios,
      speedup: round(median(ratios), 2),
    };

    /** One drain of the whole backlog by `consumers` fresh consumer processes. */
    async function drain(round_: number, consumers: number): Promise<EventsRun> {
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
      const countFiles: string[] = [];
      const profileDir = path.join(profileRoot, `round${round_}-${consumers}`);
      for (let i = 0; i < consumers; i++) {
        const countFile = path.join(options.dir, `events-statements-${process.pid}-${i}.jsonl`);
        rmSync(countFile, { force: true });
        countFiles.push(countFile);
        const nodeArgs = [
          ...(options.statements
            ? ['--import', path.join(PROJECT_ROOT, 'dist', 'bench', 'lib', 'statementPreload.js')]
            : []),
          ...(options.profileConsumers ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
        ];
        const child = spawn(
          process.execPath,
          [
            ...nodeArgs,
            path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'),
            'queue:consumers:start',
            'event.delivery',
          ],
          {
            cwd: PROJECT_ROOT,
            env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'info', BENCH_STATEMENTS_FILE: countFile },
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
      const snapshot = async (): Promise<void> => {
        if (!options.statements) return;
        const lines = countFiles.map((file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length : 1));
        for (const child of children) child.kill('SIGUSR2');
        const until = Date.now() + 5000;
        while (
          countFiles.some(
            (file, i) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length : 1) <= lines[i]!,
          )
        ) {
          if (Date.now() > until) throw new Error('a consumer did not write its statement count');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      await snapshot();
      const loadBefore = load();
      const cpuBefore = {
        machine: machineCpu(),
        consumers: children.reduce((sum, child) => sum + processCpuMs(child.pid), 0),
        receiver: process.cpuUsage(),
      };
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
      const machineAfter = machineCpu();
      const receiverUsage = process.cpuUsage(cpuBefore.receiver);
      const consumersAfter = children.reduce((sum, child) => sum + processCpuMs(child.pid), 0);
      const cpu =
        cpuBefore.machine && machineAfter
          ? {
              consumersMs: round((consumersAfter - cpuBefore.consumers) / options.events, 2),
              receiverMs: round((receiverUsage.user + receiverUsage.system) / 1000 / options.events, 2),
              machineMs: round((machineAfter.busy - cpuBefore.machine.busy) / options.events, 2),
              machineBusyPercent: round(
                (100 * (machineAfter.busy - cpuBefore.machine.busy)) /
                  (machineAfter.total - cpuBefore.machine.total || 1),
                0,
              ),
            }
          : undefined;
      await snapshot();
      const loadAfter = load();
      for (const child of children.splice(0)) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      let statementsPerEvent: number | undefined;
      let statementKinds: Record<string, number> | undefined;
      if (options.statements) {
        const kinds = new Map<string, number>();
        let total = 0;
        for (const file of countFiles) {
          const [before, after] = readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { count: number; sql: Record<string, number> });
          total += after!.count - before!.count;
          for (const [kind, n] of Object.entries(after!.sql))
            kinds.set(kind, (kinds.get(kind) ?? 0) + n - (before!.sql[kind] ?? 0));
          rmSync(file, { force: true });
        }
        statementsPerEvent = round(total / options.events, 2);
        statementKinds = Object.fromEntries(
          [...kinds.entries()]
            .filter(([, n]) => n > 0)
            .sort((a, b) => b[1] - a[1])
            .map(([kind, n]) => [kind, round(n / options.events, 2)]),
        );
      }
      let consumerBusyPercent: number[] | undefined;
      if (options.profileConsumers) {
        mkdirSync(profileDir, { recursive: true });
        consumerBusyPercent = readdirSync(profileDir)
          .filter((file) => file.endsWith('.cpuprofile'))
          .map((file) => round(100 - summariseProfile(path.join(profileDir, file)).idlePercent, 0));
      }
      return {
        round: round_,
        consumers,
        events: options.events,
        seconds: round(seconds, 2),
        perSecond: round(options.events / seconds, 1),
        p50Ms: round(percentile(latencies, 50), 0),
        p99Ms: round(percentile(latencies, 99), 0),
        peakParallel: peak,
        loadBefore,
        loadAfter,
        ...(statementsPerEvent === undefined ? {} : { statementsPerEvent, statementKinds }),
        ...(cpu ? { cpu } : {}),
        ...(consumerBusyPercent ? { consumerBusyPercent } : {}),
      };
    }
  } finally {
    for (const child of children) child.kill('SIGKILL');
    server.close();
    receiver.close();
    await app.close();
    await database.release();
  }
}

export function eventsMarkdown(report: EventsBenchReport): string {
  const lines = [
    `### Event delivery across entities (${report.database}, ${report.events} events over ${report.entities} recommendations, ${report.cpus} CPUs, receiver ${report.receiverDelayMs > 0 ? `answers after ${report.receiverDelayMs} ms` : 'answers at once'})`,
    '',
    '| round | delivery consumers | seconds | events/s | commit to delivery p50 ms | p99 ms | calls at once, at most | statements per event | CPU ms per event: consumers / receiver / machine (machine busy) | load average before → after |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...report.runs.map(
      (r) =>
        `| ${r.round} | ${r.consumers} | ${r.seconds} | ${r.perSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.peakParallel} | ${r.statementsPerEvent ?? ''} | ${r.cpu ? `${r.cpu.consumersMs} / ${r.cpu.receiverMs} / ${r.cpu.machineMs} (${r.cpu.machineBusyPercent} %)` : ''} | ${r.loadBefore.join(', ')} → ${r.loadAfter.join(', ')} |`,
    ),
    '',
    ...report.summaries.map(
      (s) =>
        `${s.consumers} consumer(s), medians over ${report.ratios.length} rounds: ${s.perSecond} events/s, commit to delivery p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms (p99 ${s.p99MsRange[0]} to ${s.p99MsRange[1]} ms).`,
    ),
    '',
    `2 consumers / 1: median ${report.speedup}x over ${report.ratios.length} rounds (each round: ${report.ratios.map((r) => `${r}x`).join(', ')}; spread ${Math.min(...report.ratios)}x to ${Math.max(...report.ratios)}x).`,
    '',
  ];
  const counted = report.runs.find((r) => r.statementKinds);
  if (counted)
    lines.push(
      `Statements per event by kind (round ${counted.round}, ${counted.consumers} consumer(s)):`,
      '',
      ...Object.entries(counted.statementKinds!).map(([kind, n]) => `- ${n} × \`${kind}\``),
      '',
    );
  return lines.join('\n');
}
