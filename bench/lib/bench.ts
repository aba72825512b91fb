/**
 * The benchmark, as a function (bench/run.ts is its command line; test/bench runs it tiny):
 *
 *  1. a database of its own, migrated by the application, token made by the CLI, data seeded;
 *  2. the three servers as child processes on loopback: the service, Express + knex, raw (the
 *     service and Express as N processes each with --processes N, the load spread over them);
 *  3. the same requests to each, answers compared (probes);
 *  4. rounds of interleaved runs (service, Express, raw, service, ...) per scenario, each after
 *     a warm-up and, for Add Items, after the database is back to its seeded state; medians;
 *  5. scaling runs (items per Add request, recommendation size), the memory soak, and the
 *     plugin-chain micro-benchmark.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  addRequest,
  getRequest,
  SCENARIOS,
  scenarioRequest,
  updateRequest,
  type DataShape,
  type Scenario,
} from './data.js';
import { drive, driveAll, splitEvenly, type LoadResult } from './load.js';
import { pluginBenchmark, type PluginReport } from './plugins.js';
import { probes, runProbes, type ProbeResult } from './probes.js';
import { ALL_SERVER_KINDS, RssSampler, ServerGroup, ServerProcess, type ServerKind } from './proc.js';
import { summariseProfile, type ProfileSummary } from './profile.js';
import { benchOnSqlite, createBenchDatabase, Resetter, seed, type Seeded } from './seed.js';
import { driverBenchmark, type DriverReport } from './driver.js';
import { machineInfo, type MachineInfo } from './machine.js';
import { median } from './stats.js';

export interface ScalingOptions {
  readonly addSizes: readonly number[];
  readonly getSizes: readonly number[];
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly servers: readonly ServerKind[];
}

export interface BenchOptions {
  readonly mode: 'full' | 'smoke';
  readonly shape: DataShape;
  /** Where the database, results and profiles go (var/bench). */
  readonly dir: string;
  readonly connections: number;
  readonly warmupSeconds: number;
  /** Extra warm-up before each server's first run of a scenario (the JIT needs a few thousand requests). */
  readonly primeSeconds: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly scenarios: readonly Scenario[];
  readonly servers: readonly ServerKind[];
  /**
   * Processes per server (1: the plain case): the service, the baseline and Express each run as
   * this many processes on ports of their own, all on the one database, the load spread evenly
   * over them; raw always runs as one. Not on SQLite, not with `profileSeconds` (processesRefusal).
   */
  readonly processes: number;
  readonly scaling: ScalingOptions | null;
  readonly plugins: { readonly counts: readonly number[]; readonly sampleMs: number; readonly samples: number } | null;
  /** `requests` for the soak, unless `maxSeconds` pass first (then the report says how many ran). */
  readonly soak: { readonly warmupRequests: number; readonly requests: number; readonly maxSeconds: number } | null;
  /** Transactions per sample of the driver micro-benchmark (SQLite only). */
  readonly driverTransactions: number | null;
  /** Profile the service (node --cpu-prof) under Add Items load for this many seconds. */
  readonly profileSeconds: number | null;
  /** The scenario profiled (Add Items by default). */
  readonly profileScenario?: Scenario;
  /** Which servers to profile (the service by default; others to compare). */
  readonly profileServers?: readonly ServerKind[];
  /** A checkout of another revision, built (bench/lib/baseline.ts): its service runs as `baseline`, interleaved right after the service. */
  readonly baselineRoot?: string;
  readonly baselineRef?: string;
  readonly log: (line: string) => void;
}

export interface RunRecord {
  readonly round: number;
  readonly result: LoadResult;
  /** Server CPU time (user + system) per request, ms: of all its processes, over all their requests. */
  readonly cpuMsPerRequest: number;
  /** CPU time each process of the server used during the run, ms (one entry for one process). */
  readonly cpuMsPerProcess: readonly number[];
  /** Largest RSS sampled during the run, MiB (the sum over the server's processes, sampled together). */
  readonly peakRssMiB: number;
}

export interface ServerSummary {
  readonly runs: RunRecord[];
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMsPerRequest: number;
  readonly peakRssMiB: number;
  readonly failures: number;
}

export interface ScenarioSummary {
  readonly scenario: Scenario;
  readonly servers: Partial<Record<ServerKind, ServerSummary>>;
  readonly serviceVsExpress: number | null;
  readonly serviceVsRaw: number | null;
  /** service p99 / Express p99: at most 1 means "no worse". */
  readonly p99VsExpress: number | null;
  /** Express CPU per request / service CPU per request (above 1: the service does the work with less CPU). */
  readonly cpuServiceVsExpress: number | null;
  readonly cpuServiceVsRaw: number | null;
  /** With a baseline: service req/s / baseline req/s, and baseline CPU / service CPU per request. */
  readonly serviceVsBaseline: number | null;
  readonly cpuServiceVsBaseline: number | null;
}

export interface ScalingPoint {
  readonly server: ServerKind;
  readonly kind: 'add' | 'get';
  /** Items per Add request, or items in the recommendation read. */
  readonly items: number;
  readonly rps: number;
  /** 1 / throughput: the server's time per request (one request at a time on its event loop). */
  readonly msPerRequest: number;
  readonly usPerItem: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: number;
}

export interface SoakReport {
  /** Requests asked for after the warm-up; `requests` ran (fewer only when the time cap came first). */
  readonly requested: number;
  readonly requests: number;
  readonly warmupRequests: number;
  readonly seconds: number;
  readonly rps: number;
  readonly failures: number;
  /** RSS right after the warm-up, and right at the end, MiB (single readings: GC makes RSS swing by tens of MiB). */
  readonly rssAfterWarmupMiB: number;
  readonly rssEndMiB: number;
  /** Median RSS over the first and over the last `windowSeconds` of the soak, MiB: what the verdict compares. */
  readonly windowSeconds: number;
  readonly rssFirstWindowMiB: number;
  readonly rssLastWindowMiB: number;
  readonly peakRssMiB: number;
  /** (last window - first window) / first window, percent. */
  readonly changePercent: number;
  /** RSS every few seconds, MiB. */
  readonly trace: { seconds: number; rssMiB: number }[];
}

export interface BenchReport {
  readonly mode: 'full' | 'smoke';
  readonly startedAt: string;
  readonly seconds: number;
  readonly machine: MachineInfo;
  readonly database: string;
  readonly settings: {
    connections: number;
    warmupSeconds: number;
    primeSeconds: number;
    seconds: number;
    rounds: number;
    shape: DataShape;
    /** --processes: processes per server (raw always 1). */
    processes: number;
  };
  /** How many processes each server ran as. */
  readonly processes: Partial<Record<ServerKind, number>>;
  readonly seed: Omit<Seeded, 'token' | 'ids'>;
  /** RSS of each server at start (summed over its processes). */
  readonly startupRssMiB: Partial<Record<ServerKind, number>>;
  readonly probes: ProbeResult[];
  readonly scenarios: ScenarioSummary[];
  readonly scaling: ScalingPoint[];
  readonly soak: SoakReport | null;
  readonly plugins: PluginReport | null;
  readonly driver: DriverReport | null;
  readonly profile: ProfileSummary | null;
  /** Profiles of the other servers, when asked for. */
  readonly otherProfiles: Partial<Record<ServerKind, ProfileSummary>>;
  /** Lifetime peak RSS (VmHWM) of each server at the end (summed over its processes). */
  readonly hwmMiB: Partial<Record<ServerKind, number>>;
  readonly notes: string[];
  /** The baseline revision, when one ran. */
  readonly baseline: string | null;
}

const failures = (r: LoadResult) => r.non2xx + r.errors + r.timeouts;

/** "5 + 5" for 10 connections over 2 processes. */
const splitNote = (connections: number, processes: number) => splitEvenly(connections, processes).join(' + ');

/**
 * Processes a server runs as under --processes N. raw stays at one (on SQLite N > 1 is refused
 * anyway, processesRefusal; on PostgreSQL its pool of 10 connections is the reference as it is).
 */
export function processCount(kind: ServerKind, processes: number): number {
  return kind === 'raw' ? 1 : processes;
}

/**
 * Why `processes` cannot run here, or null. SQLite is refused above one process: it is one writer,
 * and N processes on one file measure its write lock, not a load-balanced deployment (two Express
 * processes answered 500 "database is locked" to about a quarter of the Add Items requests in a
 * one-second smoke run: a deferred transaction that has read cannot wait for the lock). The
 * profile runs one process under node --cpu-prof.
 */
export function processesRefusal(processes: number, onSqlite: boolean, profile: boolean): string | null {
  if (!Number.isInteger(processes) || processes < 1)
    return `--processes needs a whole number of at least 1, got ${processes}`;
  if (processes === 1) return null;
  if (onSqlite) {
    return (
      `--processes ${processes} needs DATABASE_URL=postgres://... or mysql://...: SQLite is one writer, so ${processes} server processes on one file ` +
      'measure its write lock ("database is locked" answers), not a deployment behind a load balancer'
    );
  }
  if (profile)
    return '--profile runs one server process under node --cpu-prof; it cannot be combined with --processes > 1';
  return null;
}

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const refusal = processesRefusal(options.processes, benchOnSqlite(), options.profileSeconds !== null);
  if (refusal) throw new Error(refusal);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const { shape } = options;
  const log = (line: string) =>
    options.log(line.startsWith(' ') ? line : `[${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}`);
  const notes: string[] = [];
  mkdirSync(options.dir, { recursive: true });

  // In-process, before any server exists: nothing else competes for the CPU.
  let plugins: PluginReport | null = null;
  if (options.plugins) {
    log('plugin chain micro-benchmark ...');
    plugins = await pluginBenchmark(options.plugins.counts, options.plugins.sampleMs, options.plugins.samples);
    log(`  worst ${plugins.worstNsPerPlugin.toFixed(0)} ns per async plugin; chain stable: ${plugins.chainStable}`);
  }

  const database = await createBenchDatabase(options.dir, options.mode === 'smoke' ? `smoke-${process.pid}` : 'bench');
  let servers = [...options.servers];
  if (options.baselineRoot)
    servers = servers.flatMap((k) => (k === 'service' ? ['service', 'baseline'] : [k])) as ServerKind[];
  const serverOptions = (kind: ServerKind, nodeArgs?: string[]) => ({
    databaseUrl: database.url,
    nodeArgs,
    root: kind === 'baseline' ? options.baselineRoot : undefined,
  });
  const startGroup = (kind: ServerKind) =>
    ServerGroup.start(kind, processCount(kind, options.processes), serverOptions(kind));
  const startOne = (kind: ServerKind, nodeArgs?: string[]) => ServerProcess.start(kind, serverOptions(kind, nodeArgs));
  if (database.dialect === 'mysql' && servers.includes('raw')) {
    servers = servers.filter((s) => s !== 'raw');
    notes.push('The raw reference runs on SQLite (raw.ts) and PostgreSQL (rawPostgres.ts); on mysql it is left out.');
  }
  const running = new Map<ServerKind, ServerGroup>();
  let resetter: Resetter | undefined;
  try {
    log(`seeding ${database.dialect} database ...`);
    const seeded = await seed(database, shape);
    log(
      `  ${seeded.counts.products} products, ${seeded.counts.recommendations} recommendations, ${seeded.counts.items} items in ${seeded.seconds.toFixed(1)} s`,
    );
    resetter = new Resetter(database.url, seeded.maxSeededItem);
    const reset = resetter.reset.bind(resetter);

    // Before any server exists: the driver's own cost per transaction.
    let driver: DriverReport | null = null;
    if (options.driverTransactions && database.dialect === 'sqlite') {
      log('driver micro-benchmark (one Add Items transaction) ...');
      driver = await driverBenchmark(database.url, seeded.ids, options.driverTransactions, reset);
      log(
        `  knex ${driver.knexAddTransaction.toFixed(0)} µs (without the statement cache ${driver.knexAddTransactionWithoutStatementCache.toFixed(0)} µs), ` +
          `direct ${driver.directAddTransaction.toFixed(0)} µs; empty knex transaction ${driver.knexEmptyTransaction.toFixed(0)} µs`,
      );
    }

    const startupRssMiB: Partial<Record<ServerKind, number>> = {};
    const kinds = [
      ...new Set([...servers, ...(options.scaling?.servers ?? []), ...(options.soak ? ['service' as const] : [])]),
    ];
    const launched = await Promise.allSettled(kinds.map((kind) => startGroup(kind)));
    for (const outcome of launched) if (outcome.status === 'fulfilled') running.set(outcome.value.kind, outcome.value);
    for (const outcome of launched) if (outcome.status === 'rejected') throw outcome.reason;
    for (const [kind, group] of running) startupRssMiB[kind] = group.memory()?.rssMiB ?? NaN;
    const processes: Partial<Record<ServerKind, number>> = {};
    for (const [kind, group] of running) processes[kind] = group.processes.length;
    if (options.processes > 1) {
      log(
        `  processes per server: ${[...running].map(([kind, group]) => `${kind} ${group.processes.length} (pids ${group.pids.join(', ')})`).join('; ')}`,
      );
      notes.push(
        `Each server but raw ran as ${options.processes} processes of the same entry point on ports of their own, all on the one ${database.dialect} database, as behind a load balancer: ` +
          `one autocannon instance per process, the ${options.connections} connections divided evenly (${splitNote(options.connections, options.processes)}), all started together for the same duration, one request counter shared. ` +
          `req/s and requests are summed over the processes, p50/p99 come from all the latency records together, CPU per request is the CPU time of all the processes over all the requests, ` +
          `and RSS (peak during runs, at start, VmHWM, the soak's) is the sum over the processes. ` +
          `The scaling runs' ms per request is 1 / the summed req/s (no longer one event loop's time per request). The probes go to the first process of each server.`,
      );
    }
    const ordered = ALL_SERVER_KINDS.filter((k) => running.has(k)).map((k) => running.get(k)!.first);

    log('probes: the same requests to every server ...');
    const probeResults = await runProbes(
      ordered.filter((s) => servers.includes(s.kind)),
      seeded.token,
      probes(seeded.ids, shape),
      reset,
    );
    for (const p of probeResults)
      log(`  ${p.same ? 'same' : 'DIFFERENT'}  ${p.name} (${Object.values(p.status).join('/')})`);

    // ---- interleaved rounds ------------------------------------------------------------------
    const runs = new Map<string, RunRecord[]>();
    const updateCounter = { value: 0 }; // one sequence for every Update run: each hit changes qty
    log(
      `${options.rounds} rounds of ${options.scenarios.join(', ')} on ${servers.join(', ')}, ${options.seconds} s each ...`,
    );
    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of options.scenarios) {
        for (const kind of servers) {
          const group = running.get(kind)!;
          if (scenario === 'add') await reset();
          const counter = scenario === 'update' ? updateCounter : { value: 0 };
          const next = (i: number) => scenarioRequest(scenario, seeded.ids, shape, i);
          const common = { token: seeded.token, connections: options.connections, next, counter };
          const warmup = options.warmupSeconds + (round === 1 ? options.primeSeconds : 0);
          if (warmup > 0) await driveAll(group.urls, { ...common, duration: warmup });
          const sampler = new RssSampler(group.pids);
          const cpuBefore = group.cpuMsEach();
          const result = await driveAll(group.urls, { ...common, duration: options.seconds });
          const cpuMsPerProcess = group.cpuMsEach().map((ms, i) => ms - cpuBefore[i]!);
          const cpuMsPerRequest = cpuMsPerProcess.reduce((a, b) => a + b, 0) / result.requests;
          const peakRssMiB = sampler.stop();
          const dead = group.dead();
          if (dead) {
            throw new Error(
              `a ${kind} server process died during the ${scenario} run (exit ${dead.child.exitCode ?? dead.child.signalCode}):\n${dead.log().slice(-4000)}`,
            );
          }
          const key = `${scenario}/${kind}`;
          runs.set(key, [...(runs.get(key) ?? []), { round, result, cpuMsPerRequest, cpuMsPerProcess, peakRssMiB }]);
          log(
            `  round ${round} ${scenario.padEnd(6)} ${kind.padEnd(7)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  CPU ${cpuMsPerRequest.toFixed(3)} ms/req  RSS ${peakRssMiB.toFixed(0)} MiB` +
              (group.processes.length > 1
                ? `  per process: ${result.requestsPerTarget.join('/')} req, CPU ${cpuMsPerProcess.map((ms) => ms.toFixed(0)).join('/')} ms`
                : '') +
              (failures(result) ? `  FAILURES ${JSON.stringify(result.statusCodes)} errors ${result.errors}` : ''),
          );
        }
      }
    }
    const scenarios: ScenarioSummary[] = options.scenarios.map((scenario) => {
      const summaries: Partial<Record<ServerKind, ServerSummary>> = {};
      for (const kind of servers) {
        const list = runs.get(`${scenario}/${kind}`) ?? [];
        summaries[kind] = {
          runs: list,
          rps: median(list.map((r) => r.result.rps)),
          p50: median(list.map((r) => r.result.p50)),
          p99: median(list.map((r) => r.result.p99)),
          cpuMsPerRequest: median(list.map((r) => r.cpuMsPerRequest)),
          peakRssMiB: Math.max(...list.map((r) => r.peakRssMiB)),
          failures: list.reduce((sum, r) => sum + failures(r.result), 0),
        };
      }
      const s = summaries.service;
      return {
        scenario,
        servers: summaries,
        serviceVsExpress: s && summaries.express ? s.rps / summaries.express.rps : null,
        serviceVsRaw: s && summaries.raw ? s.rps / summaries.raw.rps : null,
        p99VsExpress: s && summaries.express ? s.p99 / summaries.express.p99 : null,
        cpuServiceVsExpress: s && summaries.express ? summaries.express.cpuMsPerRequest / s.cpuMsPerRequest : null,
        cpuServiceVsRaw: s && summaries.raw ? summaries.raw.cpuMsPerRequest / s.cpuMsPerRequest : null,
        serviceVsBaseline: s && summaries.baseline ? s.rps / summaries.baseline.rps : null,
        cpuServiceVsBaseline: s && summaries.baseline ? summaries.baseline.cpuMsPerRequest / s.cpuMsPerRequest : null,
      };
    });

    // ---- memory soak -----------------------------------------------------------------------------
    // One continuous run of mixed requests, before the scaling runs (their 1,000-item requests
    // grow the heap on purpose). RSS is sampled every 250 ms; the verdict compares the median of
    // the first window with the median of the last, since each GC cycle moves RSS by tens of MiB.
    let soak: SoakReport | null = null;
    if (options.soak && running.has('service')) {
      const server = running.get('service')!;
      const load = (o: Parameters<typeof driveAll>[1]) => driveAll(server.urls, o);
      const soakOptions = options.soak;
      log(
        `memory soak: ${soakOptions.warmupRequests} requests of warm-up, then ${soakOptions.requests} (Add, Update, GET in turn; at most ${soakOptions.maxSeconds} s) ...`,
      );
      await reset();
      const counters = { add: 0, update: updateCounter.value };
      const next = (i: number) => {
        const which = SCENARIOS[i % 3]!;
        if (which === 'add') return addRequest(seeded.ids, shape, counters.add++);
        if (which === 'update') return updateRequest(seeded.ids, shape, counters.update++);
        return getRequest(seeded.ids, i);
      };
      const common = { token: seeded.token, connections: options.connections, next, counter: { value: 0 } };
      const warm = await load({ ...common, amount: soakOptions.warmupRequests });
      const rssAfterWarmupMiB = server.memory()!.rssMiB;
      const start = Date.now();
      const samples: { seconds: number; rssMiB: number }[] = [];
      const sampler = setInterval(() => {
        const reading = server.memory();
        if (reading) samples.push({ seconds: (Date.now() - start) / 1000, rssMiB: reading.rssMiB });
      }, 250);
      const result = await load({ ...common, amount: soakOptions.requests, maxSeconds: soakOptions.maxSeconds });
      clearInterval(sampler);
      const rssEndMiB = server.memory()!.rssMiB;
      const seconds = (Date.now() - start) / 1000;
      const windowSeconds = Math.min(10, seconds / 4);
      const first = samples.filter((x) => x.seconds <= windowSeconds).map((x) => x.rssMiB);
      const last = samples.filter((x) => x.seconds >= seconds - windowSeconds).map((x) => x.rssMiB);
      const rssFirstWindowMiB = median(first.length ? first : [rssAfterWarmupMiB]);
      const rssLastWindowMiB = median(last.length ? last : [rssEndMiB]);
      soak = {
        requested: soakOptions.requests,
        requests: result.requests,
        warmupRequests: warm.requests,
        seconds: result.seconds,
        rps: result.rps,
        failures: failures(result) + failures(warm),
        rssAfterWarmupMiB,
        rssEndMiB,
        windowSeconds,
        rssFirstWindowMiB,
        rssLastWindowMiB,
        peakRssMiB: Math.max(rssAfterWarmupMiB, rssEndMiB, ...samples.map((x) => x.rssMiB)),
        changePercent: (100 * (rssLastWindowMiB - rssFirstWindowMiB)) / rssFirstWindowMiB,
        trace: samples.filter((_, i) => i % 20 === 0).concat([{ seconds, rssMiB: rssEndMiB }]),
      };
      log(
        `  ${result.requests} requests in ${result.seconds.toFixed(0)} s (${result.rps.toFixed(0)} req/s); RSS median of the first ${windowSeconds.toFixed(0)} s ` +
          `${rssFirstWindowMiB.toFixed(1)} MiB, of the last ${rssLastWindowMiB.toFixed(1)} MiB (${soak.changePercent.toFixed(1)}%)`,
      );
    }

    // ---- scaling -------------------------------------------------------------------------------
    const scaling: ScalingPoint[] = [];
    if (options.scaling) {
      const sc = options.scaling;
      log('scaling runs ...');
      for (const kind of sc.servers) {
        const server = running.get(kind);
        if (!server) continue;
        const load = (o: Parameters<typeof driveAll>[1]) => driveAll(server.urls, o);
        const point = async (
          pointKind: 'add' | 'get',
          items: number,
          next: (i: number) => ReturnType<typeof addRequest>,
        ) => {
          if (pointKind === 'add') await reset();
          const common = { token: seeded.token, connections: options.connections, next, counter: { value: 0 } };
          if (sc.warmupSeconds > 0) await load({ ...common, duration: sc.warmupSeconds });
          const result = await load({ ...common, duration: sc.seconds });
          const msPerRequest = 1000 / result.rps;
          scaling.push({
            server: kind,
            kind: pointKind,
            items,
            rps: result.rps,
            msPerRequest,
            usPerItem: (msPerRequest * 1000) / items,
            p50: result.p50,
            p99: result.p99,
            failures: failures(result),
          });
          log(
            `  ${kind.padEnd(7)} ${pointKind} ${String(items).padStart(6)} items: ${msPerRequest.toFixed(3)} ms/request, ${((msPerRequest * 1000) / items).toFixed(1)} µs/item${failures(result) ? `  FAILURES ${JSON.stringify(result.statusCodes)}` : ''}`,
          );
        };
        for (const n of sc.addSizes) await point('add', n, (i) => addRequest(seeded.ids, shape, i, n));
        for (const size of sc.getSizes) {
          const id = seeded.ids.bySize.get(size);
          if (!id) throw new Error(`no seeded recommendation of ${size} items (shape.scalingSizes)`);
          await point('get', size, () => getRequest({ ...seeded.ids, recommendations: [id] }, 0));
        }
      }
    }

    const hwmMiB: Partial<Record<ServerKind, number>> = {};
    for (const [kind, group] of running) hwmMiB[kind] = group.memory()?.hwmMiB ?? NaN;

    // ---- profile -----------------------------------------------------------------------------
    let profile: ProfileSummary | null = null;
    const otherProfiles: Partial<Record<ServerKind, ProfileSummary>> = {};
    if (options.profileSeconds) {
      for (const kind of options.profileServers ?? ['service']) {
        const summary = await profileServer(kind, options, startOne, seeded, reset);
        if (kind === 'service') profile = summary;
        else otherProfiles[kind] = summary;
      }
    }

    return {
      mode: options.mode,
      startedAt,
      seconds: (Date.now() - started) / 1000,
      machine: machineInfo(),
      database: database.dialect,
      settings: {
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        primeSeconds: options.primeSeconds,
        seconds: options.seconds,
        rounds: options.rounds,
        shape,
        processes: options.processes,
      },
      processes,
      seed: { maxSeededItem: seeded.maxSeededItem, counts: seeded.counts, seconds: seeded.seconds },
      startupRssMiB,
      probes: probeResults,
      scenarios,
      scaling,
      soak,
      plugins,
      driver,
      profile,
      otherProfiles,
      hwmMiB,
      notes,
      baseline: options.baselineRef ?? null,
    };
  } finally {
    await Promise.all([...running.values()].map((s) => s.stop()));
    await resetter?.close();
    await database.release();
  }
}

/** A server under Add Items load with node --cpu-prof; where its time goes (from its first request on). */
async function profileServer(
  kind: ServerKind,
  options: BenchOptions,
  start: (kind: ServerKind, nodeArgs: string[]) => Promise<ServerProcess>,
  seeded: Seeded,
  reset: () => Promise<unknown>,
): Promise<ProfileSummary> {
  const dir = path.resolve(options.dir, 'profile', kind);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await reset();
  const scenario = options.profileScenario ?? 'add';
  options.log(`profiling ${kind} on ${scenario} for ${options.profileSeconds} s ...`);
  const server = await start(kind, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200']);
  try {
    const next = (i: number) => scenarioRequest(scenario, seeded.ids, options.shape, i);
    // Update Items must change a value each time: start past every number earlier runs used.
    const counter = { value: scenario === 'update' ? 10_000_000 : 0 };
    const result = await drive({
      url: server.url,
      token: seeded.token,
      connections: options.connections,
      next,
      counter,
      duration: options.profileSeconds!,
    });
    options.log(`  ${kind} under the profiler: ${result.rps.toFixed(0)} req/s`);
  } finally {
    await server.stop(15_000);
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const summary = summariseProfile(path.join(dir, file), [
    'toSQL',
    'transaction',
    '_query',
    'query',
    'map',
    'validate',
    'handle',
    'dispatch',
    'authorize',
    'run',
    'JSON.stringify',
    'stringify',
  ]);
  options.log(
    `  ${kind}: ${summary.busyMs.toFixed(0)} ms busy; top: ${summary.topSelf
      .slice(0, 5)
      .map((f) => `${f.name} ${f.percent.toFixed(1)}%`)
      .join(', ')}`,
  );
  return summary;
}
