/** The report as markdown (var/bench/results.md, and the tables of BENCHMARKS.md). */
import { SCENARIO_TITLES } from './data.js';
import type { BenchReport } from './bench.js';
import { SERVER_TITLES, type ServerKind } from './proc.js';

const f = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits);
const x = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${n.toFixed(2)}×`);

export function markdown(report: BenchReport): string {
  const out: string[] = [];
  const m = report.machine;
  const s = report.settings;
  const processes = s.processes ?? 1;
  const perServer = Object.entries(report.processes ?? {}).map(([kind, n]) => `${kind} ${n}`);
  out.push(
    `# Benchmark results (${report.mode}; ${processes === 1 ? 'one process per server' : `server processes: ${perServer.join(', ')}`})`,
    '',
  );
  out.push(
    `${report.startedAt}, ${report.seconds.toFixed(0)} s in all. ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; ` +
      `database ${report.database}; ${Object.entries(m.packages)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
    '',
  );
  out.push(
    `${s.connections} connections, ${s.warmupSeconds} s warm-up (${s.warmupSeconds + s.primeSeconds} s before a server's first run of a scenario) then ${s.seconds} s per run, ${s.rounds} rounds interleaved (service, Express, raw, service, ...); ` +
      `medians of the rounds. Data: ${report.seed.counts.products} products, ${s.shape.recommendations} recommendations of ${s.shape.itemsPerRecommendation} items ` +
      `(GET and Update Items), an Add pool of ${s.shape.addPool} more (Add Items, back to its seeded state before every run).`,
    '',
  );
  if (processes > 1) {
    out.push(
      `Servers run as ${processes} processes each, all on the one database, the load split evenly over them: req/s summed over the processes, ` +
        `p50/p99 from all their latency records, CPU ms/req = CPU time of all the processes ÷ all the requests, RSS the sum over the processes.`,
      '',
    );
  }
  const rssHeading = processes > 1 ? 'peak RSS MiB (sum over processes)' : 'peak RSS MiB';
  out.push(
    `| Scenario | Server | req/s | p50 ms | p99 ms | CPU ms/req | ${rssHeading} | req/s per round |`,
    '|---|---|---:|---:|---:|---:|---:|---|',
  );
  for (const sc of report.scenarios) {
    for (const [kind, sum] of Object.entries(sc.servers) as [
      ServerKind,
      NonNullable<(typeof sc.servers)[ServerKind]>,
    ][]) {
      const n = report.processes?.[kind] ?? 1;
      out.push(
        `| ${SCENARIO_TITLES[sc.scenario]} | ${SERVER_TITLES[kind]}${processes > 1 ? ` ×${n}` : ''} | ${f(sum.rps, 0)} | ${f(sum.p50)} | ${f(sum.p99)} | ${f(sum.cpuMsPerRequest, 3)} | ${f(sum.peakRssMiB, 0)} | ${sum.runs.map((r) => r.result.rps.toFixed(0)).join(', ')}${sum.failures ? ` (**${sum.failures} failed**)` : ''} |`,
      );
    }
  }
  out.push(
    '',
    '| Scenario | service ÷ Express (req/s) | service ÷ raw (req/s) | service p99 ÷ Express p99 | same, by CPU per request: vs Express | vs raw |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const sc of report.scenarios) {
    out.push(
      `| ${SCENARIO_TITLES[sc.scenario]} | ${x(sc.serviceVsExpress)} | ${x(sc.serviceVsRaw)} | ${x(sc.p99VsExpress)} | ${x(sc.cpuServiceVsExpress)} | ${x(sc.cpuServiceVsRaw)} |`,
    );
  }
  if (report.scenarios.some((sc) => sc.serviceVsBaseline !== null)) {
    out.push(
      '',
      `| Scenario | service ÷ baseline (${report.baseline ?? 'baseline'}), req/s | by CPU per request |`,
      '|---|---:|---:|',
    );
    for (const sc of report.scenarios)
      out.push(`| ${SCENARIO_TITLES[sc.scenario]} | ${x(sc.serviceVsBaseline)} | ${x(sc.cpuServiceVsBaseline)} |`);
  }

  const bad = report.probes.filter((p) => !p.same);
  out.push(
    '',
    `Same answers: ${report.probes.length - bad.length} of ${report.probes.length} probe requests answered identically by every server` +
      (bad.length ? ` (different: ${bad.map((p) => p.name).join('; ')})` : '') +
      '.',
  );
  out.push(
    '',
    `RSS at start: ${Object.entries(report.startupRssMiB)
      .map(([k, v]) => `${k} ${f(v, 0)} MiB`)
      .join(', ')}; ` +
      `lifetime peak (VmHWM) at the end: ${Object.entries(report.hwmMiB)
        .map(([k, v]) => `${k} ${f(v, 0)} MiB`)
        .join(', ')}` +
      (processes > 1 ? ` (sums over each server's processes; VmHWM: the sum of each process's own peak).` : '.'),
  );

  if (report.scaling.length) {
    out.push(
      '',
      '## Scaling',
      '',
      '| Server | Operation | items | req/s | ms per request | µs per item | p50 ms | p99 ms |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const p of report.scaling) {
      out.push(
        `| ${p.server} | ${p.kind === 'add' ? 'Add Items, items per request' : 'GET, items in recommendation'} | ${p.items} | ${f(p.rps, 0)} | ${f(p.msPerRequest, 3)} | ${f(p.usPerItem, 1)} | ${f(p.p50)} | ${f(p.p99)} |${p.failures ? ` **${p.failures} failed**` : ''}`,
      );
    }
  }

  if (report.soak) {
    const k = report.soak;
    out.push(
      '',
      processes > 1
        ? `## Memory soak (service, ${report.processes?.service ?? processes} processes, RSS summed)`
        : '## Memory soak (service)',
      '',
      `${k.warmupRequests} requests of warm-up, then ${k.requests} requests${k.requests < k.requested ? ` (of the ${k.requested} asked for: the time cap came first)` : ''} ` +
        `(Add Items, Update Items, GET in turn) in ${f(k.seconds, 0)} s (${f(k.rps, 0)} req/s), ${k.failures} failed. ` +
        `RSS, median of the first ${f(k.windowSeconds, 0)} s: ${f(k.rssFirstWindowMiB, 1)} MiB; of the last ${f(k.windowSeconds, 0)} s: ${f(k.rssLastWindowMiB, 1)} MiB ` +
        `(${k.changePercent >= 0 ? '+' : ''}${f(k.changePercent, 1)}%). Single readings: ${f(k.rssAfterWarmupMiB, 1)} MiB right after the warm-up, ${f(k.rssEndMiB, 1)} MiB at the end; peak ${f(k.peakRssMiB, 1)} MiB.`,
      '',
      `RSS over time (s: MiB): ${k.trace.map((t) => `${t.seconds.toFixed(0)}: ${t.rssMiB.toFixed(0)}`).join(', ')}.`,
    );
  }

  if (report.plugins) {
    const p = report.plugins;
    const counts = [...new Set(p.points.map((q) => q.plugins))];
    out.push(
      '',
      '## Plugin chain (ns per awaited call)',
      '',
      `| Plugins | ${counts.join(' | ')} | ns per plugin (at ${counts[counts.length - 1]}) |`,
      `|---|${counts.map(() => '---:').join('|')}|---:|`,
    );
    for (const kind of [...new Set(p.points.map((q) => q.kind))]) {
      const row = p.points.filter((q) => q.kind === kind);
      out.push(
        `| async ${kind} | ${row.map((q) => f(q.nsPerCall, 0)).join(' | ')} | ${f(row[row.length - 1]!.nsPerPlugin, 0)} |`,
      );
    }
    out.push(
      '',
      `Worst: ${f(p.worstNsPerPlugin, 0)} ns per async plugin. The intercepted method is one function built at start-up (unchanged after the calls: ${p.chainStable}); ` +
        `building a 20-plugin chain costs ${f(p.buildMicros, 1)} µs, which a per-call rebuild would add to every call.`,
    );
  }

  if (report.driver) {
    const d = report.driver;
    out.push(
      '',
      `## Driver (${d.driver}, in-process, µs per transaction)`,
      '',
      '| One Add Items transaction (6 statements) | µs |',
      '|---|---:|',
      `| knex, the app's connection settings (statements prepared once) | ${f(d.knexAddTransaction, 0)} |`,
      `| knex, every statement prepared afresh (knex's default) | ${f(d.knexAddTransactionWithoutStatementCache, 0)} |`,
      `| better-sqlite3 directly, statements prepared once | ${f(d.directAddTransaction, 0)} |`,
      `| an empty knex transaction (BEGIN, COMMIT) | ${f(d.knexEmptyTransaction, 0)} |`,
      ...(d.knexAddTransactionOnSqlite3 === null || d.knexAddTransactionOnSqlite3 === undefined
        ? []
        : [
            `| knex on ${d.sqlite3} (the original design's driver), same pragmas | ${f(d.knexAddTransactionOnSqlite3, 0)} |`,
          ]),
    );
  }

  const profiles = [
    ...(report.profile ? [['service', report.profile] as const] : []),
    ...Object.entries(report.otherProfiles ?? {}),
  ];
  for (const [kind, p] of profiles) {
    if (!p) continue;
    out.push(
      '',
      `## Profile: ${SERVER_TITLES[kind as ServerKind]} under load (node --cpu-prof)`,
      '',
      `Busy ${f(p.busyMs, 0)} ms sampled from its first request on (idle ${f(p.idlePercent, 1)}%).`,
      '',
    );
    out.push('| Area | self % | inclusive % |', '|---|---:|---:|');
    const incl = new Map(p.inclusiveByArea.map((a) => [a.name, a.percent]));
    for (const a of p.selfByArea.slice(0, 15))
      out.push(`| ${a.name} | ${f(a.percent, 1)} | ${f(incl.get(a.name), 1)} |`);
    out.push('', '| Function (self) | % |', '|---|---:|');
    for (const fn of p.topSelf.slice(0, 20)) out.push(`| \`${fn.name}\` | ${f(fn.percent, 1)} |`);
    if (p.inclusiveFunctions.length) {
      out.push(
        '',
        `On the stack (inclusive %): ${p.inclusiveFunctions.map((fn) => `${fn.name} ${f(fn.percent, 1)}`).join(', ')}.`,
      );
    }
  }
  if (report.notes.length) out.push('', ...report.notes.map((n) => `Note: ${n}`));
  out.push('');
  return out.join('\n');
}
