/**
 * The message queue as the runtime sees it: publish a batch of messages on a topic, consume one
 * queue with explicit acknowledgement. Two connections serve it: `amqp` (RabbitMQ, when AMQP_URL
 * is set) and `db` (a table in the service's own database). Delivery is at least once on both:
 * a message is removed only when its consumer acknowledges it.
 */
import type { Knex } from 'knex';

export interface Delivery {
  readonly body: string;
  /** True when the message was handed out before (a consumer died or gave it back). */
  readonly redelivered: boolean;
  /** Done with it: the queue forgets it. */
  ack(): Promise<void>;
  /** Give it back to the queue, to be handed out again (after `delayMs` on the db queue). */
  requeue(delayMs: number): Promise<void>;
  /** Move it to the dead-letter queue, e.g. a body that cannot be parsed. */
  deadLetter(reason: string): Promise<void>;
}

export interface ConsumeOptions {
  /** Stops the loop: the message in hand is finished first. */
  readonly signal: AbortSignal;
  /** Stop after this many messages (`--max-messages`). */
  readonly maxMessages?: number;
  /** Called once the consumer can receive messages (subscribed on the broker, the queue table read), again after a reconnect. */
  readonly onConsuming?: () => void;
}

/** A batch handed to a batch consumer: the deliveries in queue order. */
export interface DeliveryBatch {
  readonly deliveries: readonly Delivery[];
  /** Acknowledges these deliveries of the batch together (one statement on the db queue). */
  ack(deliveries: readonly Delivery[]): Promise<void>;
}

export interface BatchConsumeOptions extends ConsumeOptions {
  /** Most messages in one batch (RabbitMQ prefetch / rows claimed at once). */
  readonly batchSize: number;
  /** Longest wait for a started batch to fill before it is handed over as it is. */
  readonly batchWaitMs: number;
}

export interface QueueDepth {
  readonly queue: string;
  readonly ready: number;
  readonly deadLetters: number;
}

/**
 * A message to publish: its body, or its body and the key of the entity it touches (e.g.
 * `recommendationId=42`). On a partitioned db queue, messages of one key are consumed in
 * publishing order by one consumer at a time (DbQueuePartitions.ts); without a key, by any.
 */
export type OutgoingMessage = string | { readonly body: string; readonly partitionKey?: string | null };

export function bodyOf(message: OutgoingMessage): string {
  return typeof message === 'string' ? message : message.body;
}

export interface QueueConnection {
  readonly type: 'amqp' | 'db';
  /**
   * Publishes `messages` on `topic`. On the db queue the rows join `trx`, so they commit or roll
   * back with the caller's writes; on RabbitMQ the call returns once the broker confirmed every
   * message, and throws (QueueUnavailableError) when it cannot.
   */
  publish(topic: string, messages: readonly OutgoingMessage[], trx?: Knex.Transaction): Promise<void>;
  /** Hands messages of `queue` to `handler` one at a time until the signal or max-messages. */
  consume(queue: string, handler: (delivery: Delivery) => Promise<void>, options: ConsumeOptions): Promise<number>;
  /**
   * Hands messages of `queue` to `handler` in batches of up to `batchSize`, one batch at a time.
   * A delivery the handler left unsettled when it returns or throws goes back to the queue; the
   * count (and max-messages) is of messages.
   */
  consumeBatches(
    queue: string,
    handler: (batch: DeliveryBatch) => Promise<void>,
    options: BatchConsumeOptions,
  ): Promise<number>;
  depth(queue: string): Promise<QueueDepth>;
  close(): Promise<void>;
}

/** The broker cannot be reached or did not confirm: the caller answers 503. */
export class QueueUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message);
    this.name = 'QueueUnavailableError';
    (this as { cause?: unknown }).cause = cause;
  }
}

/** `consume` for a connection that consumes in batches: batches of one, never waiting to fill. */
export function consumeOneAtATime(
  connection: Pick<QueueConnection, 'consumeBatches'>,
  queue: string,
  handler: (delivery: Delivery) => Promise<void>,
  options: ConsumeOptions,
): Promise<number> {
  return connection.consumeBatches(queue, (batch) => handler(batch.deliveries[0]!), {
    ...options,
    batchSize: 1,
    batchWaitMs: 0,
  });
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
