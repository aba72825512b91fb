/**
 * The benchmark scripts are correct (never how fast anything is: machines are noisy). Every part
 * of `npm run bench` runs for half a second or less on tiny data: the three servers start, answer the
 * probe requests identically, and every scenario, scaling point, the soak and the plugin
 * micro-benchmark produce numbers from 2xx answers only.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { processCount, processesRefusal, runBench, type BenchReport } from '../../bench/lib/bench.js';
import { SCENARIOS } from '../../bench/lib/data.js';
import { mergeLoadResults, splitEvenly, type LoadPart } from '../../bench/lib/load.js';
import { SERVER_KINDS } from '../../bench/lib/proc.js';
import { benchOptions, writeResults } from '../../bench/run.js';

describe('Benchmark (npm run bench), smoke run on tiny data', function () {
  this.timeout(120_000);
  const lines: string[] = [];
  let report: BenchReport;
  let written: { json: string; md: string; text: string };

  before(async () => {
    const options = benchOptions(['--smoke'], (line) => lines.push(line));
    report = await runBench(options);
    written = writeResults(options.dir, report);
  });

  it('should get the same answer from the service, Express + knex and raw for every probe request', () => {
    expect(report.probes.length).to.be.greaterThan(5);
    for (const probe of report.probes) {
      expect(probe.same, `${probe.name}: ${JSON.stringify(probe.bodies)}`).to.equal(true);
      expect(Object.keys(probe.status)).to.have.members([...SERVER_KINDS]);
    }
    const statuses = report.probes.map((p) => p.status.service);
    expect(statuses).to.include.members([200, 400, 401, 404]);
  });

  it('should measure every scenario on every server from 2xx answers only', () => {
    expect(report.scenarios.map((s) => s.scenario)).to.deep.equal([...SCENARIOS]);
    for (const scenario of report.scenarios) {
      for (const kind of SERVER_KINDS) {
        const summary = scenario.servers[kind]!;
        expect(summary, `${scenario.scenario}/${kind}`).to.not.equal(undefined);
        expect(summary.failures, `${scenario.scenario}/${kind} failures`).to.equal(0);
        for (const run of summary.runs) {
          expect(run.result.ok, `${scenario.scenario}/${kind} 2xx`).to.be.greaterThan(0);
          expect(run.result.requests).to.equal(run.result.ok);
          expect(run.result.statusCodes).to.have.keys(['200']);
        }
        expect(summary.rps).to.be.greaterThan(0);
        expect(summary.p50).to.be.greaterThan(0);
        expect(summary.p99).to.be.at.least(summary.p50);
        expect(summary.peakRssMiB).to.be.greaterThan(0);
      }
      expect(scenario.serviceVsExpress).to.be.greaterThan(0);
      expect(scenario.serviceVsRaw).to.be.greaterThan(0);
    }
  });

  it('should time Add Items per item count and GET per recommendation size', () => {
    const add = report.scaling.filter((p) => p.kind === 'add').map((p) => p.items);
    const get = report.scaling.filter((p) => p.kind === 'get').map((p) => p.items);
    expect(add).to.deep.equal([1, 10]);
    expect(get).to.deep.equal([10, 100]);
    for (const point of report.scaling) {
      expect(point.failures, `${point.kind} ${point.items}`).to.equal(0);
      expect(point.msPerRequest).to.be.greaterThan(0);
      expect(point.usPerItem).to.be.greaterThan(0);
    }
  });

  it('should soak the service and report its RSS after warm-up and at the end', () => {
    const soak = report.soak!;
    expect(soak.failures).to.equal(0);
    expect(soak.requests).to.equal(benchOptions(['--smoke']).soak!.requests);
    expect(soak.rssFirstWindowMiB).to.be.greaterThan(0);
    expect(soak.rssLastWindowMiB).to.be.greaterThan(0);
    expect(soak.trace.length).to.be.greaterThan(1);
    expect(soak.rssAfterWarmupMiB).to.be.greaterThan(0);
    expect(soak.rssEndMiB).to.be.greaterThan(0);
  });

  it('should time the plugin chain per async plugin and find it built once', () => {
    const plugins = report.plugins!;
    expect(plugins.chainStable).to.equal(true);
    for (const point of plugins.points) expect(point.nsPerCall).to.be.greaterThan(0);
    expect(plugins.points.filter((p) => p.plugins > 0).every((p) => p.nsPerPlugin !== null)).to.equal(true);
  });

  it('should time one Add Items transaction through knex and directly on the driver', () => {
    const driver = report.driver!;
    expect(driver.driver).to.match(/^better-sqlite3 /);
    for (const value of [
      driver.knexAddTransaction,
      driver.knexAddTransactionWithoutStatementCache,
      driver.directAddTransaction,
      driver.knexEmptyTransaction,
    ]) {
      expect(value).to.be.greaterThan(0);
    }
  });

  it('should write the results as JSON and as a markdown table under var/bench', () => {
    expect(path.basename(path.dirname(written.json))).to.equal('bench');
    expect(existsSync(written.json) && existsSync(written.md)).to.equal(true);
    const json = JSON.parse(readFileSync(written.json, 'utf8')) as BenchReport;
    expect(json.scenarios).to.have.length(3);
    expect(written.text).to.match(/\| Add Items \(2 new items\) \| service \(this framework\) \| \d+ \|/);
    expect(written.text).to.include('service ÷ Express');
    expect(lines.some((l) => l.includes('round 1 add'))).to.equal(true);
  });
});

describe('Benchmark options: --processes', () => {
  const quiet = () => {};

  it('should run one process per server unless told otherwise', () => {
    expect(benchOptions(['--smoke'], quiet).processes).to.equal(1);
    expect(benchOptions([], quiet).processes).to.equal(1);
  });

  it('should take --processes N for the service, the baseline and Express, and keep raw at one', () => {
    const options = benchOptions(['--smoke', '--processes', '2', '--servers', 'service,express'], quiet);
    expect(options.processes).to.equal(2);
    expect(options.servers).to.deep.equal(['service', 'express']);
    expect(['service', 'baseline', 'express', 'raw'].map((k) => processCount(k as 'service', 3))).to.deep.equal([
      3, 3, 3, 1,
    ]);
  });

  it('should refuse a process count that is not a whole number of at least 1', () => {
    for (const bad of ['0', '1.5', 'two', '-2'])
      expect(() => benchOptions(['--processes', bad], quiet), bad).to.throw(/--processes/);
  });

  it('should refuse more than one process on SQLite (one writer) and with the profiler, never one process', () => {
    expect(processesRefusal(1, true, true)).to.equal(null);
    expect(processesRefusal(2, false, false)).to.equal(null);
    expect(processesRefusal(2, true, false)).to.match(/postgres.*mysql.*SQLite is one writer/);
    expect(processesRefusal(2, false, true)).to.match(/--profile/);
    expect(processesRefusal(0, false, false)).to.match(/at least 1/);
  });

  it('should refuse --profile with more than one process, and fewer connections than processes', () => {
    expect(() => benchOptions(['--smoke', '--profile', '--processes', '2'], quiet)).to.throw(/--profile.*--processes/);
    expect(benchOptions(['--smoke', '--profile', '--processes', '1'], quiet).profileSeconds).to.equal(1);
    expect(() => benchOptions(['--processes', '4', '--connections', '3'], quiet)).to.throw(
      /at least one connection per process/,
    );
  });
});

describe('Benchmark load over several processes: splitEvenly and mergeLoadResults', () => {
  const part = (
    latencies: number[],
    seconds: number,
    statusCodes: Record<string, number>,
    extra: Partial<LoadPart> = {},
  ): LoadPart => ({
    latencies,
    seconds,
    statusCodes,
    ok: statusCodes['200'] ?? 0,
    non2xx: Object.entries(statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .reduce((a, [, n]) => a + n, 0),
    errors: 0,
    timeouts: 0,
    ...extra,
  });

  it('should divide connections (or requests) as evenly as possible, the larger shares first', () => {
    expect(splitEvenly(10, 2)).to.deep.equal([5, 5]);
    expect(splitEvenly(10, 3)).to.deep.equal([4, 3, 3]);
    expect(splitEvenly(7, 1)).to.deep.equal([7]);
    expect(splitEvenly(1, 2)).to.deep.equal([1, 0]);
    expect(() => splitEvenly(10, 0)).to.throw();
  });

  it('should give one part its own figures', () => {
    const merged = mergeLoadResults([part([3, 1, 2, 4], 2, { '200': 4 })]);
    expect(merged).to.include({ requests: 4, seconds: 2, rps: 2, p50: 2, p99: 4, mean: 2.5, ok: 4, non2xx: 0 });
    expect(merged.requestsPerTarget).to.deep.equal([4]);
  });

  it('should sum requests, req/s, status codes and failures, and take the percentiles from all the records', () => {
    // Process A: fast (1.001 .. 1.100 ms, 100 answers); process B: slow (10.001 .. 10.100 ms, 100 answers, plus 2 errors, a 500).
    const fast = Array.from({ length: 100 }, (_, i) => 1 + (i + 1) / 1000);
    const slow = Array.from({ length: 100 }, (_, i) => 10 + (i + 1) / 1000);
    const merged = mergeLoadResults([
      part(fast.slice().reverse(), 1, { '200': 100 }),
      part(slow, 1.25, { '200': 100, '500': 1 }, { errors: 2, timeouts: 1 }),
    ]);
    expect(merged.requests).to.equal(201);
    expect(merged.requestsPerTarget).to.deep.equal([100, 101]);
    expect(merged.rps).to.be.closeTo(100 / 1 + 101 / 1.25, 1e-9);
    expect(merged.seconds).to.equal(1.25);
    expect(merged.statusCodes).to.deep.equal({ '200': 200, '500': 1 });
    expect(merged).to.include({ ok: 200, non2xx: 1, errors: 2, timeouts: 1 });
    // 200 records: p50 is the 100th (the slowest fast one), p99 the 198th (the 98th slow one), to the 0.001 ms.
    expect(merged.p50).to.equal(1.1);
    expect(merged.p99).to.be.closeTo(10.098, 1e-9);
    expect(merged.mean).to.be.closeTo((fast.reduce((a, b) => a + b) + slow.reduce((a, b) => a + b)) / 200, 1e-9);
    // Not the average of the parts' percentiles.
    expect(merged.p50).to.not.be.closeTo((1.05 + 10.05) / 2, 1);
  });

  it('should give zeros, not NaN, when no answer was a 2xx', () => {
    const merged = mergeLoadResults([part([], 1, { '500': 3 }), part([], 1, {}, { errors: 4 })]);
    expect(merged).to.include({ requests: 3, p50: 0, p99: 0, mean: 0, non2xx: 3, errors: 4 });
    expect(() => mergeLoadResults([])).to.throw();
  });
});
