/**
 * SQLite has one writer: consumer processes sharing it wait for each other's write lock in
 * SQLite's busy handler (sleeps of up to 100 ms) and drain slower than one alone. So on SQLite a
 * consumer consumes only while it holds its queue's lease (a row of `queue_consumer_lease`,
 * renewed while it works); the others stand by and take over when the holder stops or dies
 * (its lease expires). Other databases have row locks and no lease.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../logging/logger.js';
import { sleep } from './QueueConnection.js';

export const CONSUMER_LEASE_TABLE = 'queue_consumer_lease';

export class ConsumerLease {
  private readonly owner = randomUUID();

  constructor(
    private readonly knex: Knex,
    private readonly queue: string,
    /** How long a lease lasts without renewal (a dead holder's lease expires after it). */
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /** Takes the lease when it is free, expired or already ours. */
  async tryAcquire(): Promise<boolean> {
    const now = Date.now();
    // A read first: a live lease of another process is left alone without taking the write lock.
    const row = (await this.knex(CONSUMER_LEASE_TABLE).where('queue_name', this.queue).first()) as
      { owner: string; expires_at: number | string } | undefined;
    if (row && row.owner !== this.owner && Number(row.expires_at) >= now) return false;
    const changed = await this.knex(CONSUMER_LEASE_TABLE)
      .where('queue_name', this.queue)
      .andWhere((q) => q.where('owner', this.owner).orWhere('expires_at', '<', now))
      .update({ owner: this.owner, expires_at: now + this.ttlMs });
    if (changed === 1) return true;
    try {
      await this.knex(CONSUMER_LEASE_TABLE).insert({
        queue_name: this.queue,
        owner: this.owner,
        expires_at: now + this.ttlMs,
      });
      return true;
    } catch {
      return false; // someone else's, and alive
    }
  }

  /**
   * Waits (polling) for the lease, then runs `work` with a signal that aborts when `signal` does
   * or a renewal fails; after a lost lease, waits for it again. Gives the lease up at the end.
   */
  async whileHeld(signal: AbortSignal, work: (held: AbortSignal) => Promise<void>): Promise<void> {
    let waiting = false;
    while (!signal.aborted) {
      let acquired = false;
      try {
        acquired = await this.tryAcquire();
      } catch (error) {
        this.logger.warn({ err: error }, 'consumer: the lease cannot be read');
      }
      if (!acquired) {
        if (!waiting)
          this.logger.info({ queue: this.queue }, 'consumer: standing by (SQLite: one consumer works at a time)');
        waiting = true;
        await sleep(Math.min(1000, this.ttlMs / 2), signal);
        continue;
      }
      waiting = false;
      const held = new AbortController();
      const stop = (): void => held.abort();
      signal.addEventListener('abort', stop, { once: true });
      const renewal = setInterval(
        () => {
          this.tryAcquire().then(
            (still) => {
              if (!still) {
                this.logger.warn({ queue: this.queue }, 'consumer: lost the lease; standing by');
                held.abort();
              }
            },
            () => held.abort(),
          );
        },
        Math.max(100, this.ttlMs / 3),
      );
      try {
        await work(held.signal);
      } finally {
        clearInterval(renewal);
        signal.removeEventListener('abort', stop);
      }
      // Done (stopped, or its max-messages reached) unless the lease was lost: then stand by again.
      if (signal.aborted || !held.signal.aborted) break;
    }
    await this.knex(CONSUMER_LEASE_TABLE)
      .where({ queue_name: this.queue, owner: this.owner })
      .delete()
      .catch(() => undefined);
  }
}
