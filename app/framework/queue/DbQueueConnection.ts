/**
 * The `db` queue: messages are rows of `queue_message` in the service's own database (the table
 * comes with Dispensary_AsynchronousOperations' migrations), so SQLite alone is enough. A consumer
 * claims a row by moving its `available_at` past now plus the lock timeout; acknowledging deletes
 * it. A consumer that dies leaves its row to reappear when the lock expires (at-least-once).
 * PostgreSQL and MySQL/MariaDB claim with `FOR UPDATE SKIP LOCKED`, so consumers never wait on
 * each other; SQLite (one writer at a time anyway) claims with a compare-and-set update.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { hasRowLocks, type Dialect } from '../db/dialect.js';
import type { Logger } from '../logger.js';
import { sleep, type ConsumeOptions, type Delivery, type QueueConnection, type QueueDepth } from './QueueConnection.js';
import { queueForTopic, type Topology } from './Topology.js';

export const QUEUE_MESSAGE_TABLE = 'queue_message';
const POLL_INTERVAL_MS = 200;
const INSERT_CHUNK = 100;

interface MessageRow {
  id: number;
  body: string;
  available_at: number | string;
  attempts: number;
}

export class DbQueueConnection implements QueueConnection {
  readonly type = 'db';
  private readonly owner = randomUUID();

  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
    private readonly names: Topology,
    private readonly logger: Logger,
    /** How long a claimed message stays invisible to other consumers. */
    private readonly lockTimeoutMs: number,
  ) {}

  async publish(topic: string, bodies: readonly string[], trx?: Knex.Transaction): Promise<void> {
    const queue = queueForTopic(this.names, topic);
    const now = Date.now();
    const rows = bodies.map((body) => ({ queue_name: queue, topic_name: topic, body, available_at: now, attempts: 0, created_at: now }));
    const db = trx ?? this.knex;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await db(QUEUE_MESSAGE_TABLE).insert(rows.slice(i, i + INSERT_CHUNK));
  }

  async consume(queue: string, handler: (delivery: Delivery) => Promise<void>, options: ConsumeOptions): Promise<number> {
    let handled = 0;
    let delay = 250;
    let consuming = false;
    while (!options.signal.aborted && (options.maxMessages === undefined || handled < options.maxMessages)) {
      let row: MessageRow | null;
      try {
        row = await this.claim(queue);
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
      if (!row) {
        await sleep(POLL_INTERVAL_MS, options.signal);
        continue;
      }
      const delivery = this.delivery(queue, row);
      try {
        await handler(delivery);
      } catch (error) {
        // E.g. the database went away while recording the outcome: the message comes back later.
        this.logger.error({ err: error }, 'consumer: handler failed; the message goes back to the queue');
        await delivery.requeue(1000).catch(() => undefined);
      }
      handled++;
    }
    return handled;
  }

  private async claim(queue: string): Promise<MessageRow | null> {
    const now = Date.now();
    const claimed = { available_at: now + this.lockTimeoutMs, locked_by: this.owner };
    if (hasRowLocks(this.dialect)) {
      return this.knex.transaction(async (trx) => {
        const row = (await trx(QUEUE_MESSAGE_TABLE)
          .select('id', 'body', 'available_at', 'attempts')
          .where('queue_name', queue)
          .andWhere('available_at', '<=', now)
          .orderBy('id')
          .first()
          .forUpdate()
          .skipLocked()) as MessageRow | undefined;
        if (!row) return null;
        await trx(QUEUE_MESSAGE_TABLE).where('id', row.id).update({ ...claimed, attempts: row.attempts + 1 });
        return row;
      });
    }
    for (let tries = 0; tries < 5; tries++) {
      const row = (await this.knex(QUEUE_MESSAGE_TABLE)
        .select('id', 'body', 'available_at', 'attempts')
        .where('queue_name', queue)
        .andWhere('available_at', '<=', now)
        .orderBy('id')
        .first()) as MessageRow | undefined;
      if (!row) return null;
      // Another process may have claimed it since the read: only one update matches.
      const changed = await this.knex(QUEUE_MESSAGE_TABLE)
        .where({ id: row.id, available_at: row.available_at })
        .update({ ...claimed, attempts: row.attempts + 1 });
      if (changed === 1) return row;
    }
    return null;
  }

  private delivery(queue: string, row: MessageRow): Delivery {
    const mine = () => this.knex(QUEUE_MESSAGE_TABLE).where({ id: row.id, locked_by: this.owner });
    return {
      body: row.body,
      redelivered: row.attempts > 0,
      ack: async () => {
        await mine().delete();
      },
      requeue: async (delayMs) => {
        await mine().update({ available_at: Date.now() + delayMs, locked_by: null });
      },
      deadLetter: async (reason) => {
        this.logger.warn({ messageId: row.id, reason }, 'consumer: message moved to the dead-letter queue');
        await mine().update({ queue_name: this.names.deadLetterQueue(queue), available_at: Date.now(), locked_by: null });
      },
    };
  }

  async depth(queue: string): Promise<QueueDepth> {
    const count = async (name: string): Promise<number> => {
      const row = (await this.knex(QUEUE_MESSAGE_TABLE).where('queue_name', name).count({ n: '*' }).first()) as { n: number | string };
      return Number(row.n);
    };
    return { queue, ready: await count(queue), deadLetters: await count(this.names.deadLetterQueue(queue)) };
  }

  async close(): Promise<void> {
    /* the knex pool belongs to the application */
  }
}
