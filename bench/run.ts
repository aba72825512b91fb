/**
 * `npm run bench`: the whole benchmark (under 10 minutes on 2 cores), results printed and written
 * to var/bench/results.json and var/bench/results.md.
 * `npm run bench:smoke`: every part for half a second or less on tiny data, to prove the scripts work
 * (load runs of 0.2 s after 0.05 s of warm-up: each still got 11 answers or more beside four busy
 * loops on 2 cores, and 80 or more on a quiet machine; the figures mean nothing).
 *
 * Options (after `--`): --smoke, --rounds N, --seconds S, --warmup S, --connections N,
 * --scenarios add,update,get, --servers service,express,raw, --no-scaling, --no-soak,
 * --no-plugins, --no-driver, --soak-requests N, --profile [S] (node --cpu-prof on the service under Add Items
 * load; summary in the results, profile in var/bench/profile/), --profile-servers a,b,
 * --profile-scenario add|update|get,
 * --baseline <git ref> (that revision's service runs too, interleaved: before/after figures),
 * --scaling-servers a,b, --out <name> (var/bench/<name>.json and .md instead of results),
 * --processes N (default 1): the service, the baseline and Express each run as N processes of the
 * same server on N ports, all on the one database, as behind a load balancer; every run spreads
 * its load evenly over them (one autocannon instance per process, connections divided, started
 * together, one request counter) and the report merges them (req/s summed, percentiles from all
 * latency records, CPU per request of all the processes, RSS summed); the report's title says
 * how many processes each server ran as. PostgreSQL or MySQL only: on SQLite --processes > 1 is
 * refused with a message (SQLite is one writer; N processes on one file measure its write lock,
 * "database is locked" answers, not a load-balanced deployment); raw, the reference, is a single
 * process always. --profile is single-process and refused with
 * --processes > 1; --async and --scenario login-flood ignore --processes.
 * --async --statements: statements the db-queue consumer sends per operation (counted at the driver).
 * --async [--operations N] [--consumers 1,2,4] [--batch-size N] [--no-sync] [--rounds N]
 * [--entities E] [--per-entity P] [--bulk-size B] [--shape shared]: E recommendations (default 100)
 * with P operations each (then N = E x P), B operations per bulk request (default 1000); `--shape
 * shared` is 50 x 30 in bulks of 500 (issue 28: operations sharing recommendations);
 * [--no-one-bulk]: the consumers' batch size (CONSUMER_BATCH_SIZE; 1: one operation per transaction,
 * as before batching), without the synchronous route's run, each drain and the synchronous run
 * repeated N times interleaved, best kept (default 3; smoke 1); last, the N operations posted as one
 * bulk request, timed (--no-one-bulk leaves it out; --one-bulk runs only it); --profile-consumers:
 * the consumer processes run under node --cpu-prof (var/bench/profile/consumers/);
 * --baseline-consumers <dir>: a built checkout of another revision whose consumers drain too, each
 * drain right after this checkout's, on a database seeded the same way (before/after in one run).
 * --scenario login-flood [--seconds S] [--baseline <ref>]: only the login-flood measurement
 * (bench/lib/loginFlood.ts), written to var/bench/login-flood.{json,md}.
 * --scenario webhooks [--requests N] [--events N]: the latency of one before-webhook on Add Items
 * and the event delivery rate with 1 and 2 consumers (bench/lib/webhooksBench.ts), written to
 * var/bench/webhooks-results.{json,md}.
 * --scenario events [--events N] [--entities N] [--rounds N] [--receiver-delay-ms MS] [--statements]
 * [--profile-consumers]: event delivery across entities (2000 events over 200 recommendations by
 * default) with 1 and 2 consumers, N rounds interleaved (default 3), events/s, the p50/p99 from
 * commit to delivery and the median ratio (bench/lib/eventsBench.ts), written to
 * var/bench/events-results.{json,md}; run it with DATABASE_URL=postgres://... (BENCHMARKS.md).
 * DATABASE_URL=mysql://... or
 * postgres://... runs on that server in a database / schema of its own (raw is bench/servers/raw.ts
 * on SQLite, bench/servers/rawPostgres.ts on PostgreSQL, left out on MySQL).
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';
import { readDeploymentConfig } from '../app/bootstrap/config/DeploymentConfig.js';
import { prepareBaseline } from './lib/baseline.js';
import { asyncMarkdown, oneBulkRun, runAsyncBench, runStatementProbe } from './lib/asyncBench.js';
import { processesRefusal, runBench, type BenchOptions } from './lib/bench.js';
import { FULL_SHAPE, SCENARIOS, SMOKE_SHAPE, type Scenario } from './lib/data.js';
import { ALL_SERVER_KINDS, SERVER_KINDS, type ServerKind } from './lib/proc.js';
import { floodMarkdown, runLoginFlood } from './lib/loginFlood.js';
import { markdown } from './lib/report.js';
import { eventsMarkdown, runEventsBench } from './lib/eventsBench.js';
import { runWebhooksBench, webhooksMarkdown } from './lib/webhooksBench.js';
import { benchOnSqlite } from './lib/seed.js';

process.env.LOG_LEVEL ??= 'warn';

export function benchOptions(
  argv: readonly string[],
  log: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): BenchOptions {
  const has = (flag: string) => argv.includes(flag);
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (flag: string, fallback: number) => {
    const v = value(flag);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a number, got "${v}"`);
    return n;
  };
  const list = <T extends string>(flag: string, all: readonly T[], fallback: readonly T[] = all): T[] => {
    const v = value(flag);
    if (!v) return [...fallback];
    const picked = v.split(',').map((s) => s.trim()) as T[];
    for (const p of picked) if (!all.includes(p)) throw new Error(`${flag}: unknown "${p}" (one of ${all.join(', ')})`);
    return picked;
  };
  const smoke = has('--smoke');
  const processes = num('--processes', 1);
  if (!Number.isInteger(processes) || processes < 1)
    throw new Error(`--processes needs a whole number of at least 1, got "${value('--processes')}"`);
  // SQLite is refused in runBench (processesRefusal), where the database is known.
  const dir = path.join(PROJECT_ROOT, 'var', 'bench');
  const profileArg = value('--profile');
  const profileSeconds = has('--profile')
    ? profileArg && /^\d+(\.\d+)?$/.test(profileArg)
      ? Number(profileArg)
      : smoke
        ? 1
        : 15
    : null;
  if (profileSeconds !== null && processes > 1)
    throw new Error(
      '--profile runs one server process under node --cpu-prof; it cannot be combined with --processes > 1',
    );
  const connections = num('--connections', 10);
  if (connections < processes)
    throw new Error(
      `--connections ${connections} cannot reach --processes ${processes}: at least one connection per process`,
    );
  return {
    mode: smoke ? 'smoke' : 'full',
    shape: smoke ? SMOKE_SHAPE : FULL_SHAPE,
    dir,
    connections,
    warmupSeconds: num('--warmup', smoke ? 0.05 : 1),
    primeSeconds: num('--prime', smoke ? 0 : 2),
    seconds: num('--seconds', smoke ? 0.2 : 10),
    rounds: num('--rounds', smoke ? 1 : 3),
    scenarios: list<Scenario>('--scenarios', SCENARIOS),
    servers: list<ServerKind>('--servers', SERVER_KINDS),
    processes,
    scaling: has('--no-scaling')
      ? null
      : smoke
        ? { addSizes: [1, 10], getSizes: [10, 100], warmupSeconds: 0.05, seconds: 0.2, servers: ['service'] }
        : {
            addSizes: [1, 10, 100, 1000],
            getSizes: [10, 1000, 10000],
            warmupSeconds: 0.5,
            seconds: 2.5,
            servers: list<ServerKind>('--scaling-servers', SERVER_KINDS, ['service']),
          },
    plugins: has('--no-plugins')
      ? null
      : smoke
        ? { counts: [0, 1, 5], sampleMs: 10, samples: 1 }
        : { counts: [0, 1, 5, 20], sampleMs: 100, samples: 3 },
    soak: has('--no-soak')
      ? null
      : {
          warmupRequests: smoke ? 100 : 5_000,
          requests: num('--soak-requests', smoke ? 300 : 100_000),
          maxSeconds: num('--soak-max-seconds', smoke ? 30 : 150),
        },
    driverTransactions: has('--no-driver') ? null : smoke ? 10 : 300,
    profileSeconds,
    profileServers: list<ServerKind>('--profile-servers', ALL_SERVER_KINDS, ['service']),
    profileScenario: list<Scenario>('--profile-scenario', SCENARIOS, ['add'])[0],
    baselineRef: value('--baseline'),
    log,
  };
}

export function writeResults(
  dir: string,
  report: Awaited<ReturnType<typeof runBench>>,
  out?: string,
): { json: string; md: string; text: string } {
  const name = out ?? (report.mode === 'smoke' ? 'smoke-results' : 'results');
  if (!/^[\w.-]+$/.test(name)) throw new Error(`--out takes a plain file name, got "${name}"`);
  const json = path.join(dir, `${name}.json`);
  const md = path.join(dir, `${name}.md`);
  const text = markdown(report);
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(md, text);
  return { json, md, text };
}

/** `--async`: only the asynchronous web API benchmark (bench/lib/asyncBench.ts). */
async function asyncMain(argv: readonly string[]): Promise<void> {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const smoke = argv.includes('--smoke');
  const dir = path.join(PROJECT_ROOT, 'var', 'bench');
  if (argv.includes('--statements')) {
    const probe = await runStatementProbe({
      dir,
      operations: 0,
      bulkSize: 1000,
      consumerCounts: [],
      amqpUrl: null,
      log: () => undefined,
    });
    process.stdout.write(
      `db queue consumer on ${probe.database}: ${probe.perOperation.toFixed(2)} statements per operation\n${JSON.stringify(probe.bySql, null, 2)}\n`,
    );
    return;
  }
  // `--shape shared`: issue 28's shape, 1,500 operations over 50 recommendations (30 each) in bulks of
  // 500, where consumers taking neighbouring operations would touch the same recommendations' rows.
  const shared = value('--shape') === 'shared';
  if (value('--shape') !== undefined && !shared) throw new Error('--shape: only "shared" is known');
  const entities = Number(value('--entities') ?? (shared ? 50 : 100));
  const perEntity = value('--per-entity') ?? (shared ? '30' : undefined);
  const options = {
    dir,
    operations:
      perEntity !== undefined ? entities * Number(perEntity) : Number(value('--operations') ?? (smoke ? 200 : 10_000)),
    bulkSize: Number(value('--bulk-size') ?? (shared ? 500 : 1000)),
    entities,
    consumerCounts: (value('--consumers') ?? (smoke ? '1,2' : '1,2,4')).split(',').map(Number),
    amqpUrl: readDeploymentConfig().amqpUrl,
    batchSize: value('--batch-size') === undefined ? undefined : Number(value('--batch-size')),
    skipSync: argv.includes('--no-sync'),
    rounds: Number(value('--rounds') ?? (smoke ? 1 : 3)),
    profileConsumersDir: argv.includes('--profile-consumers') ? path.join(dir, 'profile', 'consumers') : undefined,
    baselineConsumersRoot: value('--baseline-consumers') ? path.resolve(value('--baseline-consumers')!) : undefined,
    log: (line: string) => process.stdout.write(`${line}\n`),
  };
  const onlyOneBulk = argv.includes('--one-bulk');
  const drains = onlyOneBulk ? null : await runAsyncBench(options);
  const oneBulk = argv.includes('--no-one-bulk') ? undefined : await oneBulkRun(options);
  const report = drains
    ? { ...drains, oneBulk }
    : {
        operations: options.operations,
        batchSize: 'default' as const,
        database: '',
        rounds: options.rounds,
        drains: [],
        sync: { clients: 0, seconds: 0, perSecond: 0, loadAverage: 0 },
        oneBulk,
      };
  const text = asyncMarkdown(report);
  mkdirSync(dir, { recursive: true }); // not made by a run on a database server
  writeFileSync(path.join(dir, 'async-results.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(dir, 'async-results.md'), text);
  process.stdout.write(`\n${text}\nWritten: var/bench/async-results.json, var/bench/async-results.md\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--scenario') && process.argv[process.argv.indexOf('--scenario') + 1] === 'login-flood')
    return loginFlood(process.argv.slice(2));
  if (process.argv.includes('--async')) return asyncMain(process.argv.slice(2));
  if (process.argv.includes('--scenario') && process.argv[process.argv.indexOf('--scenario') + 1] === 'webhooks')
    return webhooksMain(process.argv.slice(2));
  if (process.argv.includes('--scenario') && process.argv[process.argv.indexOf('--scenario') + 1] === 'events')
    return eventsMain(process.argv.slice(2));
  let options = benchOptions(process.argv.slice(2));
  // Before the baseline's build: a refusal should not cost minutes.
  const refusal = processesRefusal(options.processes, benchOnSqlite(), options.profileSeconds !== null);
  if (refusal) {
    process.stderr.write(`${refusal}.\n`);
    process.exitCode = 2;
    return;
  }
  if (options.baselineRef)
    options = { ...options, baselineRoot: prepareBaseline(options.baselineRef, options.dir, options.log) };
  const report = await runBench(options);
  const argv = process.argv.slice(2);
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : undefined;
  const { json, md, text } = writeResults(options.dir, report, out);
  process.stdout.write(
    `\n${text}\nWritten: ${path.relative(process.cwd(), json)}, ${path.relative(process.cwd(), md)}\n`,
  );
  const failed =
    report.scenarios.some((s) => Object.values(s.servers).some((v) => v.failures > 0)) ||
    report.probes.some((p) => !p.same);
  if (failed) {
    process.stderr.write('Some requests failed or the servers answered differently: see above.\n');
    process.exitCode = 1;
  }
}

/** `--scenario login-flood [--seconds S] [--baseline <ref>]`: bench/lib/loginFlood.ts. */
async function loginFlood(argv: readonly string[]): Promise<void> {
  const options = benchOptions(argv);
  const baselineRoot = options.baselineRef ? prepareBaseline(options.baselineRef, options.dir, options.log) : undefined;
  const seconds = argv.includes('--seconds') ? options.seconds : 8;
  const report = await runLoginFlood({
    dir: options.dir,
    seconds,
    floodConnections: 64,
    baselineRoot,
    baselineRef: options.baselineRef,
    log: options.log,
  });
  const text = floodMarkdown(report);
  writeFileSync(path.join(options.dir, 'login-flood.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(options.dir, 'login-flood.md'), text);
  process.stdout.write(`\n${text}\nWritten: var/bench/login-flood.{json,md}\n`);
}

/** `--scenario webhooks [--smoke] [--requests N] [--events N]`: bench/lib/webhooksBench.ts. */
async function webhooksMain(argv: readonly string[]): Promise<void> {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const smoke = argv.includes('--smoke');
  const dir = path.join(PROJECT_ROOT, 'var', 'bench');
  const report = await runWebhooksBench({
    dir,
    requests: Number(value('--requests') ?? (smoke ? 40 : 1000)),
    events: Number(value('--events') ?? (smoke ? 50 : 2000)),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const text = webhooksMarkdown(report);
  writeFileSync(path.join(dir, 'webhooks-results.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(dir, 'webhooks-results.md'), text);
  process.stdout.write(`\n${text}\nWritten: var/bench/webhooks-results.json, var/bench/webhooks-results.md\n`);
}

/** `--scenario events [--smoke] [--events N] [--entities N] [--rounds N] ...`: bench/lib/eventsBench.ts, on DATABASE_URL (PostgreSQL for BENCHMARKS.md). */
async function eventsMain(argv: readonly string[]): Promise<void> {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const smoke = argv.includes('--smoke');
  const dir = path.join(PROJECT_ROOT, 'var', 'bench');
  mkdirSync(dir, { recursive: true });
  const report = await runEventsBench({
    dir,
    events: Number(value('--events') ?? (smoke ? 100 : 2000)),
    entities: Number(value('--entities') ?? (smoke ? 10 : 200)),
    receiverDelayMs: Number(value('--receiver-delay-ms') ?? 0),
    rounds: Number(value('--rounds') ?? (smoke ? 1 : 3)),
    statements: argv.includes('--statements'),
    profileConsumers: argv.includes('--profile-consumers'),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const text = eventsMarkdown(report);
  writeFileSync(path.join(dir, 'events-results.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(dir, 'events-results.md'), text);
  process.stdout.write(`\n${text}\nWritten: var/bench/events-results.json, var/bench/events-results.md\n`);
}

// Run only as the entry point (the smoke test imports benchOptions / writeResults).
if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
