/**
 * The `db` queue: messages are rows of `queue_message` in the service's own database (the table
 * comes with Dispensary_AsynchronousOperations' migrations), so SQLite alone is enough. A consumer
 * claims a row by moving its `available_at` past now plus the lock timeout; acknowledging deletes
 * it. A batch consumer claims up to its batch size of rows in one statement (under a token of the
 * claim's own in `locked_by`) and acknowledges them in one. A consumer that dies leaves its rows
 * to reappear when the lock expires (at-least-once).
 * PostgreSQL and MySQL/MariaDB claim with `FOR UPDATE SKIP LOCKED`, so consumers never wait on
 * each other (PostgreSQL in one `UPDATE ... RETURNING` statement); SQLite (one writer at a time
 * anyway) claims with a compare-and-set update.
 * With `partitions` > 0 (the async web API's queue, DB_QUEUE_PARTITIONS) the queue is partitioned
 * by the messages' partition keys: a consumer claims only messages of partitions it leases, and
 * of each partition only those ahead of any message still in flight (DbQueuePartitions.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { hasRowLocks, type Dialect } from '../db/dialect.js';
import type { Logger } from '../logging/logger.js';
import {
  consumeOneAtATime,
  sleep,
  type BatchConsumeOptions,
  type ConsumeOptions,
  type Delivery,
  type DeliveryBatch,
  type OutgoingMessage,
  type QueueConnection,
  type QueueDepth,
} from './QueueConnection.js';
import { queueForTopic, type Topology } from './Topology.js';
import { DbQueuePartitions, partitionOf, QUEUE_PARTITION_TABLE } from './DbQueuePartitions.js';

export const QUEUE_MESSAGE_TABLE = 'queue_message';
const POLL_INTERVAL_MS = 200;
const INSERT_CHUNK = 100;

interface MessageRow {
  id: number;
  body: string;
  available_at: number | string;
  attempts: number;
  partition_no?: number | null;
}

/** Rows taken by one claim statement, locked under its token. */
interface Claim {
  readonly token: string;
  readonly rows: MessageRow[];
}

interface DbDelivery extends Delivery {
  readonly id: number;
  readonly token: string;
  /** Acknowledged, requeued or dead-lettered: what is left unsettled goes back to the queue. */
  settled: boolean;
}

export class DbQueueConnection implements QueueConnection {
  readonly type = 'db';

  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
    private readonly names: Topology,
    private readonly logger: Logger,
    /** How long a claimed message stays invisible to other consumers. */
    private readonly lockTimeoutMs: number,
    /** Partitions by partition key (0: none, every consumer takes any message). */
    private readonly partitions = 0,
  ) {}

  async publish(topic: string, messages: readonly OutgoingMessage[], trx?: Knex.Transaction): Promise<void> {
    const queue = queueForTopic(this.names, topic);
    const now = Date.now();
    const rows = messages.map((message) => {
      const key = typeof message === 'string' ? null : message.partitionKey;
      return {
        queue_name: queue,
        topic_name: topic,
        body: typeof message === 'string' ? message : message.body,
        available_at: now,
        attempts: 0,
        created_at: now,
        ...(this.partitions > 0 && key ? { partition_no: partitionOf(key, this.partitions) } : {}),
      };
    });
    const db = trx ?? this.knex;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await db(QUEUE_MESSAGE_TABLE).insert(rows.slice(i, i + INSERT_CHUNK));
  }

  consume(queue: string, handler: (delivery: Delivery) => Promise<void>, options: ConsumeOptions): Promise<number> {
    return consumeOneAtATime(this, queue, handler, options);
  }

  async consumeBatches(
    queue: string,
    handler: (batch: DeliveryBatch) => Promise<void>,
    options: BatchConsumeOptions,
  ): Promise<number> {
    const partitions =
      this.partitions > 0
        ? new DbQueuePartitions(this.knex, queue, this.partitions, this.lockTimeoutMs, this.logger)
        : undefined;
    try {
      return await this.consumeLoop(queue, handler, options, partitions);
    } finally {
      await partitions?.leave().catch((error: unknown) => {
        this.logger.warn({ err: error }, 'consumer: partitions not released; they expire with their lease');
      });
    }
  }

  private async consumeLoop(
    queue: string,
    handler: (batch: DeliveryBatch) => Promise<void>,
    options: BatchConsumeOptions,
    partitions: DbQueuePartitions | undefined,
  ): Promise<number> {
    let handled = 0;
    let delay = 250;
    let consuming = false;
    const left = (): number => (options.maxMessages === undefined ? Infinity : options.maxMessages - handled);
    while (!options.signal.aborted && left() > 0) {
      const size = Math.max(1, Math.min(options.batchSize, left()));
      let claims: Claim[];
      try {
        // Between batches: nothing of this consumer is in flight, so partitions may move.
        await partitions?.rebalance(!consuming);
        claims = await this.claim(queue, size, partitions);
        // A started batch waits (once, bounded) for more messages to fill it.
        const rows = claims.reduce((n, claim) => n + claim.rows.length, 0);
        if (rows > 0 && rows < size && options.batchWaitMs > 0) {
          await sleep(options.batchWaitMs, options.signal);
          if (!options.signal.aborted) claims = claims.concat(await this.claim(queue, size - rows, partitions));
        }
        delay = 250;
        if (!consuming) options.onConsuming?.();
        consuming = true;
      } catch (error) {
        consuming = false;
        this.logger.warn({ err: error, retryInMs: delay }, 'consumer: the queue table cannot be read');
        await sleep(delay, options.signal);
        delay = Math.min(delay * 2, 5000);
        continue;
      }
      if (claims.length === 0) {
        await sleep(POLL_INTERVAL_MS, options.signal);
        continue;
      }
      const deliveries = claims.flatMap((claim) => claim.rows.map((row) => this.delivery(queue, row, claim.token)));
      const batch: DeliveryBatch = { deliveries, ack: (some) => this.ackAll(some as DbDelivery[]) };
      try {
        await handler(batch);
      } catch (error) {
        // E.g. the database went away while recording the outcome: the messages come back later.
        this.logger.error({ err: error }, 'consumer: handler failed; the message goes back to the queue');
      }
      for (const delivery of deliveries) if (!delivery.settled) await delivery.requeue(1000).catch(() => undefined);
      handled += deliveries.length;
    }
    return handled;
  }

  /**
   * Claims up to `limit` rows in one go, under a token of this claim's own (the row's `locked_by`).
   * Partitioned: only rows without a partition or of a partition this consumer leases (the leases
   * renewed on the way), and of each partition only rows ahead of its first unavailable one.
   */
  private async claim(queue: string, limit: number, partitions?: DbQueuePartitions): Promise<Claim[]> {
    const now = Date.now();
    const token = randomUUID();
    const claimed = {
      available_at: now + this.lockTimeoutMs,
      locked_by: token,
      attempts: this.knex.raw('attempts + 1'),
    };
    if (this.dialect === 'postgres') {
      // One statement, one round trip (not BEGIN, SELECT, UPDATE, COMMIT): the rows are locked, skipping
      // those another claim holds, and claimed together; RETURNING gives attempts after the claim.
      const result = (
        partitions
          ? await this.knex.raw(
              `with mine as (update ?? set expires_at = ? where queue_name = ? and owner = ? and expires_at >= ? returning partition_no),
               next as (select m.id from ?? as m where m.queue_name = ? and m.available_at <= ?
                 and (m.partition_no is null or m.partition_no in (select partition_no from mine))
                 and not exists (select 1 from ?? as b where b.queue_name = m.queue_name and b.partition_no = m.partition_no
                   and b.id < m.id and b.available_at > ?)
                 order by m.id limit ? for update of m skip locked)
               update ?? as q set available_at = ?, locked_by = ?, attempts = q.attempts + 1 from next where q.id = next.id
               returning q.id, q.body, q.available_at, q.attempts`,
              [
                QUEUE_PARTITION_TABLE,
                now + this.lockTimeoutMs,
                queue,
                partitions.owner,
                now,
                QUEUE_MESSAGE_TABLE,
                queue,
                now,
                QUEUE_MESSAGE_TABLE,
                now,
                limit,
                QUEUE_MESSAGE_TABLE,
                claimed.available_at,
                token,
              ],
            )
          : await this.knex.raw(
              `with next as (select id from ?? where queue_name = ? and available_at <= ? order by id limit ? for update skip locked)
               update ?? as q set available_at = ?, locked_by = ?, attempts = q.attempts + 1 from next where q.id = next.id
               returning q.id, q.body, q.available_at, q.attempts`,
              [QUEUE_MESSAGE_TABLE, queue, now, limit, QUEUE_MESSAGE_TABLE, claimed.available_at, token],
            )
      ) as { rows: MessageRow[] };
      const rows = result.rows
        .map((row) => ({ ...row, attempts: Number(row.attempts) - 1 }))
        .sort((a, b) => Number(a.id) - Number(b.id));
      return rows.length > 0 ? [{ token, rows }] : [];
    }
    if (partitions) return this.claimPartitioned(queue, limit, partitions, now, token, claimed);
    const candidates = (db: Knex) =>
      db(QUEUE_MESSAGE_TABLE)
        .select('id', 'body', 'available_at', 'attempts')
        .where('queue_name', queue)
        .andWhere('available_at', '<=', now)
        .orderBy('id')
        .limit(limit);
    if (hasRowLocks(this.dialect)) {
      const rows = await this.knex.transaction(async (trx) => {
        const found = (await candidates(trx).forUpdate().skipLocked()) as MessageRow[];
        if (found.length > 0)
          await trx(QUEUE_MESSAGE_TABLE)
            .whereIn(
              'id',
              found.map((row) => row.id),
            )
            .update(claimed);
        return found;
      });
      return rows.length > 0 ? [{ token, rows }] : [];
    }
    for (let tries = 0; tries < 5; tries++) {
      const found = (await candidates(this.knex)) as MessageRow[];
      if (found.length === 0) return [];
      // Another process may have claimed some since the read: only rows still available change.
      const changed = await this.knex(QUEUE_MESSAGE_TABLE)
        .whereIn(
          'id',
          found.map((row) => row.id),
        )
        .andWhere('available_at', '<=', now)
        .update(claimed);
      if (changed === found.length) return [{ token, rows: found }];
      if (changed > 0) {
        const mine = new Set(
          ((await this.knex(QUEUE_MESSAGE_TABLE).where('locked_by', token).select('id')) as { id: number }[]).map(
            (row) => Number(row.id),
          ),
        );
        return [{ token, rows: found.filter((row) => mine.has(Number(row.id))) }];
      }
    }
    return [];
  }

  /**
   * The partitioned claim on MySQL/MariaDB and SQLite: one transaction that renews the leases first
   * (their row locks keep a takeover out until it ends), reads the candidates without locking them
   * and claims them with a compare-and-set update. Not SKIP LOCKED: InnoDB locks the rows a claim
   * scans, not only those it takes, so another consumer's claim would make this one skip rows of its
   * own partition and run later ones first (seen in the two-consumer test on MariaDB).
   */
  private async claimPartitioned(
    queue: string,
    limit: number,
    partitions: DbQueuePartitions,
    now: number,
    token: string,
    claimed: Record<string, unknown>,
  ): Promise<Claim[]> {
    const rows = await this.knex.transaction(async (trx) => {
      const scope = await this.partitionScope(trx, queue, partitions, now);
      const found = (await trx(QUEUE_MESSAGE_TABLE)
        .select('id', 'body', 'available_at', 'attempts', 'partition_no')
        .where('queue_name', queue)
        .andWhere('available_at', '<=', now)
        .andWhere((q) => q.whereNull('partition_no').orWhereIn('partition_no', scope.mine))
        .orderBy('id')
        .limit(limit)) as MessageRow[];
      // Of a partition, only rows ahead of its first unavailable one (in flight or given back with a delay).
      const inOrder = found.filter((row) => {
        const head = row.partition_no == null ? undefined : scope.blocked.get(Number(row.partition_no));
        return head === undefined || Number(row.id) < head;
      });
      if (inOrder.length === 0) return [];
      const changed = await trx(QUEUE_MESSAGE_TABLE)
        .whereIn(
          'id',
          inOrder.map((row) => row.id),
        )
        .andWhere('available_at', '<=', now)
        .update(claimed);
      if (changed === inOrder.length) return inOrder;
      // A row without a partition another consumer took since the read stays theirs.
      const mine = new Set(
        ((await trx(QUEUE_MESSAGE_TABLE).where('locked_by', token).select('id')) as { id: number }[]).map((row) =>
          Number(row.id),
        ),
      );
      return inOrder.filter((row) => mine.has(Number(row.id)));
    });
    return rows.length > 0 ? [{ token, rows }] : [];
  }

  /** The partitions this consumer leases (renewed), and of each the first row not available now. */
  private async partitionScope(
    db: Knex,
    queue: string,
    partitions: DbQueuePartitions,
    now: number,
  ): Promise<{ mine: number[]; blocked: Map<number, number> }> {
    const leased = db(QUEUE_PARTITION_TABLE)
      .where({ queue_name: queue, owner: partitions.owner })
      .andWhere('expires_at', '>=', now);
    await leased.clone().update({ expires_at: now + this.lockTimeoutMs });
    const mine = ((await leased.clone().select('partition_no')) as { partition_no: number }[]).map((row) =>
      Number(row.partition_no),
    );
    const blocked = new Map<number, number>();
    if (mine.length > 0) {
      const heads = (await db(QUEUE_MESSAGE_TABLE)
        .where('queue_name', queue)
        .whereIn('partition_no', mine)
        .andWhere('available_at', '>', now)
        .groupBy('partition_no')
        .select('partition_no')
        .min({ head: 'id' })) as { partition_no: number; head: number | string }[];
      for (const row of heads) blocked.set(Number(row.partition_no), Number(row.head));
    }
    return { mine, blocked };
  }

  private async ackAll(deliveries: readonly DbDelivery[]): Promise<void> {
    const open = deliveries.filter((delivery) => !delivery.settled);
    for (const delivery of open) delivery.settled = true;
    const byToken = new Map<string, number[]>();
    for (const delivery of open) byToken.set(delivery.token, [...(byToken.get(delivery.token) ?? []), delivery.id]);
    for (const [token, ids] of byToken)
      await this.knex(QUEUE_MESSAGE_TABLE).whereIn('id', ids).andWhere('locked_by', token).delete();
  }

  private delivery(queue: string, row: MessageRow, token: string): DbDelivery {
    const mine = () => this.knex(QUEUE_MESSAGE_TABLE).where({ id: row.id, locked_by: token });
    const delivery: DbDelivery = {
      id: row.id,
      token,
      settled: false,
      body: row.body,
      redelivered: row.attempts > 0,
      ack: async () => {
        delivery.settled = true;
        await mine().delete();
      },
      requeue: async (delayMs) => {
        delivery.settled = true;
        await mine().update({ available_at: Date.now() + delayMs, locked_by: null });
      },
      deadLetter: async (reason) => {
        delivery.settled = true;
        this.logger.warn({ messageId: row.id, reason }, 'consumer: message moved to the dead-letter queue');
        await mine().update({
          queue_name: this.names.deadLetterQueue(queue),
          available_at: Date.now(),
          locked_by: null,
        });
      },
    };
    return delivery;
  }

  async depth(queue: string): Promise<QueueDepth> {
    const count = async (name: string): Promise<number> => {
      const row = (await this.knex(QUEUE_MESSAGE_TABLE).where('queue_name', name).count({ n: '*' }).first()) as {
        n: number | string;
      };
      return Number(row.n);
    };
    return { queue, ready: await count(queue), deadLetters: await count(this.names.deadLetterQueue(queue)) };
  }

  async close(): Promise<void> {
    /* the knex pool belongs to the application */
  }
}
