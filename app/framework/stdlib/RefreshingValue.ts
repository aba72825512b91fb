/**
 * A value read again at most every `maxAgeMs` (and at once after `invalidate()`), for state that
 * other processes change too, such as run-time subscriptions kept in the database: callers within
 * the age share one read, and concurrent callers share one load in flight.
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
    if (!this.loading) {
      const generation = this.generation;
      const loading = this.load()
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
