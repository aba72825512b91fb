/**
 * Partitions of a `db` queue, as Kafka's: a message published with a partition key (the entity it
 * touches, e.g. `recommendationId=42`) carries `partition_no = hash(key) % count`. Each consumer
 * leases a share of the partitions (a row of `queue_partition` it owns until `expires_at`) and
 * claims only messages of partitions it holds, plus messages without a key. So two consumers
 * never take operations of one entity at once (they would wait on each other's row locks), and
 * one entity's operations run in publishing order.
 *
 * Shares: consumers announce themselves in `queue_partition_member` (renewed while they run);
 * each keeps ceil(partitions / live members), releasing extras between batches and taking free or
 * expired ones, so partitions move when consumers come and go. A consumer that dies stops renewing:
 * its member row and partition leases expire after the lease time and the others take over.
 *
 * Order across a handover does not rest on the lease alone: a claim skips every message of a
 * partition behind one that is not available (in flight elsewhere, or given back with a delay),
 * so a new owner waits for the old owner's messages to be acknowledged or to expire.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../logging/logger.js';

export const QUEUE_PARTITION_TABLE = 'queue_partition';
export const QUEUE_PARTITION_MEMBER_TABLE = 'queue_partition_member';

/** How often a consumer renews its leases and looks at its share (at most; the lease time bounds it too). */
const REBALANCE_INTERVAL_MS = 1000;
/**
 * How often, between those, it counts the live consumers (one read): a consumer joining or leaving
 * changes every share, and a newcomer that waited a whole interval for the others to release its
 * share would sit idle through most of a short drain.
 */
const MEMBER_CHECK_INTERVAL_MS = 200;

/** The partition of a key: FNV-1a of its UTF-16 units, modulo the count (publisher and consumers agree on it). */
export function partitionOf(key: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

export class DbQueuePartitions {
  /** This consumer's name in `owner` columns. */
  readonly owner = randomUUID();
  private nextRebalance = 0;
  private nextMemberCheck = 0;
  /** Live consumers at the last rebalance: a change makes the next one due at once. */
  private members = 0;
  private created = false;
  private held: number[] = [];

  constructor(
    private readonly knex: Knex,
    private readonly queue: string,
    readonly count: number,
    /** How long a lease lasts without renewal: a dead consumer's partitions are taken over after it. */
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /** The partitions held after the last rebalance (for logs and tests). */
  get partitions(): readonly number[] {
    return this.held;
  }

  /** Renews the leases and moves this consumer towards its share, when due (or `force`). Call between batches only. */
  async rebalance(force = false): Promise<void> {
    const now = Date.now();
    if (!force && now < this.nextRebalance) {
      if (now < this.nextMemberCheck) return;
      this.nextMemberCheck = now + MEMBER_CHECK_INTERVAL_MS;
      if ((await this.liveMembers(now)) === this.members) return;
    }
    this.nextRebalance = now + Math.min(REBALANCE_INTERVAL_MS, Math.floor(this.ttlMs / 3));
    this.nextMemberCheck = now + MEMBER_CHECK_INTERVAL_MS;
    const expires = now + this.ttlMs;
    if (!this.created) {
      const rows = Array.from({ length: this.count }, (_, p) => ({
        queue_name: this.queue,
        partition_no: p,
        owner: null,
        expires_at: 0,
      }));
      await this.knex(QUEUE_PARTITION_TABLE).insert(rows).onConflict(['queue_name', 'partition_no']).ignore();
      this.created = true;
    }
    const member = this.knex(QUEUE_PARTITION_MEMBER_TABLE).where({ queue_name: this.queue, owner: this.owner });
    if ((await member.clone().update({ expires_at: expires })) === 0)
      await this.knex(QUEUE_PARTITION_MEMBER_TABLE).insert({
        queue_name: this.queue,
        owner: this.owner,
        expires_at: expires,
      });
    this.members = await this.liveMembers(now);
    const share = Math.ceil(this.count / Math.max(1, this.members));
    await this.partitionRows()
      .where('owner', this.owner)
      .andWhere('expires_at', '>=', now)
      .update({ expires_at: expires });
    let held = await this.leasedAt(now);
    if (held.length > share) {
      // Between batches nothing of these partitions is in flight here: whoever takes them next starts clean.
      const extra = held.slice(share);
      await this.partitionRows()
        .where('owner', this.owner)
        .whereIn('partition_no', extra)
        .update({ owner: null, expires_at: 0 });
      held = held.slice(0, share);
      this.logger.info({ queue: this.queue, released: extra.length, share }, 'consumer: partitions released');
    } else if (held.length < share) {
      const free = (
        (await this.partitionRows()
          .where('expires_at', '<', now)
          .orderBy('partition_no')
          .limit(share - held.length)
          .select('partition_no')) as { partition_no: number }[]
      ).map((row) => Number(row.partition_no));
      if (free.length > 0) {
        // Compare-and-set: a partition another consumer took since the read stays theirs.
        await this.partitionRows()
          .whereIn('partition_no', free)
          .andWhere('expires_at', '<', now)
          .update({ owner: this.owner, expires_at: expires });
        held = await this.leasedAt(now);
        this.logger.info({ queue: this.queue, held: held.length, share }, 'consumer: partitions taken');
      }
    }
    this.held = held;
    // Short of its share (a consumer just joined, another has yet to release): look again soon.
    if (held.length < share) this.nextRebalance = Math.min(this.nextRebalance, now + 200);
  }

  /** Stopping: the partitions and the membership go at once, so the others need not wait for the lease to expire. */
  async leave(): Promise<void> {
    await this.partitionRows().where('owner', this.owner).update({ owner: null, expires_at: 0 });
    await this.knex(QUEUE_PARTITION_MEMBER_TABLE).where({ queue_name: this.queue, owner: this.owner }).delete();
    // Housekeeping: members that died long ago.
    await this.knex(QUEUE_PARTITION_MEMBER_TABLE)
      .where('queue_name', this.queue)
      .andWhere('expires_at', '<', Date.now() - this.ttlMs)
      .delete();
    this.held = [];
  }

  /** The consumers whose membership has not expired at `now`. */
  private async liveMembers(now: number): Promise<number> {
    const live = (await this.knex(QUEUE_PARTITION_MEMBER_TABLE)
      .where('queue_name', this.queue)
      .andWhere('expires_at', '>=', now)
      .count({ n: '*' })
      .first()) as { n: number | string };
    return Number(live.n);
  }

  /** The partitions whose lease this consumer holds at `now`, in order. */
  private async leasedAt(now: number): Promise<number[]> {
    const rows = (await this.partitionRows()
      .where('owner', this.owner)
      .andWhere('expires_at', '>=', now)
      .orderBy('partition_no')
      .select('partition_no')) as { partition_no: number }[];
    return rows.map((row) => Number(row.partition_no));
  }

  private partitionRows(): Knex.QueryBuilder {
    return this.knex(QUEUE_PARTITION_TABLE).where('queue_name', this.queue);
  }
}
