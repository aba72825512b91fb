import { ServiceUnavailableException } from '#framework';

/** The 503 body the runtime answers when the database is away, with a hint to come back soon. */
const BUSY = 'The service is temporarily unavailable. Try again later.';

/**
 * A small semaphore for password hashing. scrypt runs on libuv's thread pool (4 threads) and each
 * hash takes 128 MiB and a third of a second of a CPU at the default cost: unbounded, a login
 * flood takes every core from the requests that need them. At most `concurrency` hashes run at
 * once; up to `maxWaiting` callers queue in order; past that a caller is refused at once with a
 * 503 and `Retry-After`, rather than waiting seconds in a line that only grows.
 */
export class HashingSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Hashes running now. */
  get running(): number {
    return this.active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active++;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw new ServiceUnavailableException(BUSY, {}, 1);
      // The finishing caller hands its slot straight to the first in line (active stays the same).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
