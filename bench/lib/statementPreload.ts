/**
 * `node --import dist/bench/lib/statementPreload.js ...`: counts the statements the process sends
 * to its database (bench/lib/statementCounter.ts) and, on each SIGUSR2, appends a snapshot
 * (`{"count": N, "sql": {"<first words>": n, ...}}`, one JSON line) to the file named by
 * BENCH_STATEMENTS_FILE. The events bench snapshots a consumer at the commit and after the last
 * delivery: the difference is what the drain cost, start-up and idle polling left out.
 * BENCH_STATEMENTS_TIMED=1 adds `"ns"`: the time inside each statement's driver call, by the same
 * key (SQLite: the statement's whole run).
 */
import { appendFileSync } from 'node:fs';
import { StatementCounter } from './statementCounter.js';

const file = process.env.BENCH_STATEMENTS_FILE;
if (file) {
  const timed = process.env.BENCH_STATEMENTS_TIMED === '1';
  const counter = new StatementCounter(true, 10, timed).install();
  process.on('SIGUSR2', () => {
    const snapshot = {
      count: counter.count,
      sql: Object.fromEntries(counter.sql),
      ...(timed ? { ns: Object.fromEntries(counter.ns) } : {}),
    };
    appendFileSync(file, `${JSON.stringify(snapshot)}\n`);
  });
}
