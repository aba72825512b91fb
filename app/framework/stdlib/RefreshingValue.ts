import { requestContext } from '../context/RequestContext.js';

/**
 * A value read again at most every `maxAgeMs` (and at once after `invalidate()`), for state that
 * other processes change too, such as run-time subscriptions kept in the database: callers within
 * the age share one read, and concurrent callers share one load in flight.
 *
 * The shared load runs outside any request (on the pool, never in a caller's transaction). A
 * caller inside a unit of work never waits for it: that caller holds a pooled connection, and
 * when every other one is held by transactions queued behind its row locks, a load waiting for a
 * connection would wait for the caller itself, a deadlock the database cannot see (it ended in the
 * acquire timeout and a 503). Such a caller, when the value is stale or gone, reads in its own
 * transaction, for itself alone: that read may see the transaction's own writes, so it is not kept.
 */
export class RefreshingValue<T> {
  private current?: { at: number; value: T };
  private loading?: Promise<T>;
  /** Bumped by invalidate(): a load that started before it does not become the current value. */
  private generation = 0;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<T> {
    if (this.current && this.now() - this.current.at < this.maxAgeMs) return this.current.value;
    if (requestContext.current()?.transaction) return this.load();
    if (!this.loading) {
      const generation = this.generation;
      const loading = requestContext
        .outside(() => this.load())
        .then((value) => {
          if (generation === this.generation) this.current = { at: this.now(), value };
          return value;
        })
        .finally(() => {
          if (this.loading === loading) this.loading = undefined;
        });
      this.loading = loading;
    }
    return this.loading;
  }

  /** The next `get()` reads again (this process has just changed the state). */
  invalidate(): void {
    this.generation++;
    this.current = undefined;
    this.loading = undefined;
  }
}
