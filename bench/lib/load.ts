/**
 * Drives one server with autocannon (in this, the orchestrator's, process; the servers are child
 * processes): N keep-alive connections on loopback, each request built by the scenario from a
 * counter shared across the warm-up and the run, so every request is unique where it must be
 * (Add Items: new skus each time).
 *
 * A server of several processes (--processes N, as behind a load balancer) is driven by
 * `driveAll`: one autocannon instance per process, the connections (or the `amount`) divided as
 * evenly as possible, all started together for the same duration, one shared counter (the
 * instances run in this one thread, so each request number is taken once), and the results
 * merged by `mergeLoadResults` from the raw latency records.
 */
import autocannon from 'autocannon';
import type { BenchRequest } from './data.js';

export interface LoadOptions {
  readonly url: string;
  readonly token: string;
  readonly connections: number;
  /** Seconds; or `amount` requests. */
  readonly duration?: number;
  readonly amount?: number;
  /** With `amount`: stop anyway after this many seconds. */
  readonly maxSeconds?: number;
  /** Request number i -> the request. */
  readonly next: (i: number) => BenchRequest;
  /** Where numbering starts; the caller keeps it across warm-up and run. */
  readonly counter: { value: number };
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  /** Latency of 2xx answers, ms (our own record, to 0.001 ms; autocannon's histogram counts whole ms). */
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
  /** Requests answered by each target (process), in the order of the urls; one entry for one process. */
  readonly requestsPerTarget: readonly number[];
}

/** What one autocannon instance measured, before any summary: what `mergeLoadResults` merges. */
export interface LoadPart {
  /** Latency of every 2xx answer, ms, unsorted (our own record, to 0.001 ms). */
  readonly latencies: readonly number[];
  /** The instance's own run time, s. */
  readonly seconds: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** `total` split into `parts` whole shares differing by at most one, the larger first: 10 over 3 -> 4, 3, 3. */
export function splitEvenly(total: number, parts: number): number[] {
  if (!Number.isInteger(parts) || parts < 1) throw new Error(`cannot split into ${parts} parts`);
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * The runs of several autocannon instances (one per server process, run side by side) as one:
 * requests, req/s, status codes and failures summed (req/s of each instance over its own
 * duration, then summed; `seconds` is the longest); p50, p99 and the mean from all the latency
 * records together (never an average of percentiles). One part gives that part's own figures.
 */
export function mergeLoadResults(parts: readonly LoadPart[]): LoadResult {
  if (parts.length === 0) throw new Error('no load results to merge');
  const statusCodes: Record<string, number> = {};
  const requestsPerTarget: number[] = [];
  let rps = 0;
  let count = 0;
  for (const part of parts) {
    let total = 0;
    for (const [code, n] of Object.entries(part.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
      total += n;
    }
    requestsPerTarget.push(total);
    rps += part.seconds > 0 ? total / part.seconds : 0;
    count += part.latencies.length;
  }
  const sorted = new Float64Array(count);
  let at = 0;
  for (const part of parts) {
    sorted.set(part.latencies, at);
    at += part.latencies.length;
  }
  sorted.sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const add = (field: 'ok' | 'non2xx' | 'errors' | 'timeouts') => parts.reduce((a, p) => a + p[field], 0);
  return {
    requests: requestsPerTarget.reduce((a, b) => a + b, 0),
    seconds: Math.max(...parts.map((p) => p.seconds)),
    rps,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: count ? sum / count : 0,
    ok: add('ok'),
    non2xx: add('non2xx'),
    errors: add('errors'),
    timeouts: add('timeouts'),
    statusCodes,
    requestsPerTarget,
  };
}

/** One autocannon instance against one url: its raw records. */
async function measure(options: LoadOptions): Promise<LoadPart> {
  const headers = {
    authorization: `Bearer ${options.token}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const latencies: number[] = [];
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    // autocannon ends a run on its sampling tick (once a second): a run of 0.3 s (a smoke run's
    // warm-up) would take a whole second. A fractional duration is sampled every 50 ms instead
    // (only the end of the run depends on it: the figures come from the records below).
    ...(options.amount === undefined && !Number.isInteger(options.duration ?? 10) ? { sampleInt: 50 } : {}),
    timeout: 60,
    headers,
    requests: [
      {
        setupRequest: (request) => {
          const next = options.next(options.counter.value++);
          // A fresh headers object each time: autocannon writes Content-Length into it.
          return { ...request, method: next.method, path: next.path, body: next.body, headers: { ...headers } };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const cap = options.maxSeconds ? setTimeout(() => instance.stop(), options.maxSeconds * 1000) : undefined;
  const result = await instance;
  clearTimeout(cap);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count;
  return {
    latencies,
    seconds: result.duration,
    statusCodes,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

export async function drive(options: LoadOptions): Promise<LoadResult> {
  return mergeLoadResults([await measure(options)]);
}

/**
 * The same load spread over several processes of one server (`urls`, one per process): one
 * autocannon instance each, started together, the connections (or `amount`) split evenly, the
 * counter shared; the results merged. One url is exactly `drive`.
 */
export async function driveAll(urls: readonly string[], options: Omit<LoadOptions, 'url'>): Promise<LoadResult> {
  if (urls.length === 0) throw new Error('driveAll: no urls');
  if (urls.length === 1) return drive({ ...options, url: urls[0]! });
  const connections = splitEvenly(options.connections, urls.length);
  if (connections.some((c) => c < 1))
    throw new Error(`${options.connections} connections cannot reach ${urls.length} processes`);
  const amounts = options.amount !== undefined ? splitEvenly(options.amount, urls.length) : undefined;
  if (amounts?.some((a) => a < 1)) throw new Error(`${options.amount} requests cannot reach ${urls.length} processes`);
  const parts = await Promise.all(
    urls.map((url, i) =>
      measure({ ...options, url, connections: connections[i]!, ...(amounts ? { amount: amounts[i]! } : {}) }),
    ),
  );
  return mergeLoadResults(parts);
}
