/**
 * Drives one server with autocannon (in this, the orchestrator's, process; the servers are child
 * processes): N keep-alive connections on loopback, each request built by the scenario from a
 * counter shared across the warm-up and the run, so every request is unique where it must be
 * (Add Items: new skus each time).
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
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export async function drive(options: LoadOptions): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', accept: 'application/json' };
  const latencies: number[] = [];
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 10 }),
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
  const sorted = Float64Array.from(latencies).sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count;
  const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    requests: total,
    seconds: result.duration,
    rps: total / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}
