/**
 * Prometheus metrics (prom-client), one registry per application: requests by route pattern and
 * status, their latency, the database pool, and prom-client's process defaults (CPU, memory,
 * heap, event-loop lag, open handles).
 */
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

export class Metrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly series = new Map<
    string,
    { requests: { inc(): void }; duration: { observe(value: number): void } }
  >();

  constructor(
    knex: Knex,
    /** The application's registry, which modules may add to; a fresh one by default. */
    readonly registry = new Registry(),
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of the answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const pool = (): TarnPool | undefined => (knex.client as { pool?: TarnPool }).pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state: used (lent to a request), free, pending_acquire (requests waiting), pending_create',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const p = pool();
        this.set({ state: 'used' }, p?.numUsed() ?? 0);
        this.set({ state: 'free' }, p?.numFree() ?? 0);
        this.set({ state: 'pending_acquire' }, p?.numPendingAcquires() ?? 0);
        this.set({ state: 'pending_create' }, p?.numPendingCreates() ?? 0);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'Largest size of the database pool',
      registers: [this.registry],
      collect() {
        this.set(pool()?.max ?? 0);
      },
    });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    // Performance: prom-client checks and hashes a label set on every call; each (method, route,
    // status) is looked up once. Bounded: route patterns are the configured ones or UNMATCHED_ROUTE.
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.duration.observe(seconds);
  }
}
