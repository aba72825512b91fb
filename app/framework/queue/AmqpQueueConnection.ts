/**
 * RabbitMQ through amqplib. The service declares its own topology (durable exchange, queues and
 * dead-letter queue) on every channel it opens, so an empty broker, or one restarted without its
 * definitions, works at once. Publishing uses a confirm channel: publish() returns only when the
 * broker has taken every message. Consumers take one message at a time (prefetch 1), or a batch
 * (prefetch = twice the batch size: the next batch arrives while one is worked on), acknowledge
 * after the work (a batch in one frame when it can), and reconnect by themselves with backoff when
 * the broker goes away.
 */
import type { ChannelModel, Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logging/logger.js';
import {
  QueueUnavailableError,
  bodyOf,
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
import { topology, type Topology } from './Topology.js';

/**
 * amqplib, loaded on the first connection: a process with no AMQP_URL (the database queue, or no
 * queue at all) never pays for importing it.
 */
export async function amqplib() {
  return (await import('amqplib')).default;
}

const MAX_RECONNECT_DELAY_MS = 5_000;

/** How long a publisher or consumer waits on a broker it cannot hear (docs/operating-several-hosts.md). */
export interface AmqpTimeouts {
  /** AMQP_HEARTBEAT_SECONDS: a broker silent for twice this is taken as gone (unless the URL sets `heartbeat`). */
  readonly heartbeatSeconds: number;
  /** AMQP_CONNECT_TIMEOUT_MS: opening the connection. */
  readonly connectMs: number;
  /** AMQP_CONFIRM_TIMEOUT_MS: the broker's confirm of published messages; past it the request answers 503. */
  readonly confirmMs: number;
}

export const DEFAULT_AMQP_TIMEOUTS: AmqpTimeouts = { heartbeatSeconds: 10, connectMs: 5000, confirmMs: 10_000 };

export class AmqpQueueConnection implements QueueConnection {
  readonly type = 'amqp';
  private publisher?: Promise<{ connection: ChannelModel; channel: ConfirmChannel }>;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly names: Topology,
    private readonly logger: Logger,
    private readonly timeouts: AmqpTimeouts = DEFAULT_AMQP_TIMEOUTS,
  ) {}

  private async connect(): Promise<ChannelModel> {
    // A short heartbeat notices a broker that vanished without closing the socket.
    const url = new URL(this.url);
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', String(this.timeouts.heartbeatSeconds));
    const connection = await (await amqplib()).connect(url.toString(), { timeout: this.timeouts.connectMs });
    connection.on('error', (error: unknown) => this.logger.warn({ err: error }, 'AMQP connection error'));
    return connection;
  }

  private async declare(channel: Channel): Promise<void> {
    const t = this.names;
    await channel.assertExchange(t.exchange, 'topic', { durable: true });
    await channel.assertExchange(t.deadLetterExchange, 'fanout', { durable: true });
    for (const [queue, pattern] of t.queues) {
      await channel.assertQueue(queue, {
        durable: true,
        arguments: { 'x-dead-letter-exchange': t.deadLetterExchange },
      });
      await channel.bindQueue(queue, t.exchange, pattern);
      await channel.assertQueue(t.deadLetterQueue(queue), { durable: true });
      await channel.bindQueue(t.deadLetterQueue(queue), t.deadLetterExchange, '');
    }
  }

  private publisherChannel(): Promise<{ connection: ChannelModel; channel: ConfirmChannel }> {
    if (this.closed) return Promise.reject(new QueueUnavailableError('The queue connection is closed'));
    this.publisher ??= (async () => {
      const connection = await this.connect();
      try {
        const channel = await connection.createConfirmChannel();
        await this.declare(channel);
        // A lost broker: the next publish connects afresh.
        const forget = (): void => {
          this.publisher = undefined;
        };
        connection.on('close', forget);
        channel.on('close', forget);
        channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'AMQP publisher channel error'));
        return { connection, channel };
      } catch (error) {
        await connection.close().catch(() => undefined);
        throw error;
      }
    })();
    const attempt = this.publisher;
    attempt.catch(() => {
      if (this.publisher === attempt) this.publisher = undefined;
    });
    return attempt;
  }

  /** The partition key is not used here: RabbitMQ's queue is not partitioned (docs/operating.md, the async web API's partitions). */
  async publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    let channel: ConfirmChannel;
    try {
      ({ channel } = await this.publisherChannel());
    } catch (error) {
      throw new QueueUnavailableError('The message broker cannot be reached', error);
    }
    try {
      for (const message of messages) {
        channel.publish(this.names.exchange, topic, Buffer.from(bodyOf(message)), {
          persistent: true,
          contentType: 'application/json',
        });
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no publisher confirm in time')), this.timeouts.confirmMs);
      });
      try {
        await Promise.race([channel.waitForConfirms(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    } catch (error) {
      // The channel may be half-broken: start afresh next time.
      const current = this.publisher;
      this.publisher = undefined;
      void current?.then(({ connection }) => connection.close()).catch(() => undefined);
      throw new QueueUnavailableError('The message broker did not confirm the messages', error);
    }
  }

  consume(queue: string, handler: (delivery: Delivery) => Promise<void>, options: ConsumeOptions): Promise<number> {
    return consumeOneAtATime(this, queue, handler, options);
  }

  async consumeBatches(
    queue: string,
    handler: (batch: DeliveryBatch) => Promise<void>,
    options: BatchConsumeOptions,
  ): Promise<number> {
    let handled = 0;
    let delay = 250;
    const left = (): number | undefined =>
      options.maxMessages === undefined ? undefined : options.maxMessages - handled;
    while (!options.signal.aborted && (left() ?? 1) > 0) {
      let connection: ChannelModel;
      try {
        connection = await this.connect();
      } catch (error) {
        this.logger.warn({ err: error, retryInMs: delay }, 'consumer: the message broker cannot be reached');
        await sleep(delay, options.signal);
        delay = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
        continue;
      }
      delay = 250;
      const session = new ConsumerSession(connection, queue, handler, options, left(), this.logger);
      try {
        const channel = await connection.createChannel();
        await this.declare(channel);
        handled += await session.run(channel);
      } catch (error) {
        handled += session.count;
        this.logger.warn({ err: error }, 'consumer: lost the broker connection, reconnecting');
        await sleep(delay, options.signal);
      } finally {
        await connection.close().catch(() => undefined);
      }
    }
    return handled;
  }

  async depth(queue: string): Promise<QueueDepth> {
    const connection = await this.connect();
    try {
      const channel = await connection.createChannel();
      await this.declare(channel);
      const ready = (await channel.checkQueue(queue)).messageCount;
      const deadLetters = (await channel.checkQueue(this.names.deadLetterQueue(queue))).messageCount;
      return { queue, ready, deadLetters };
    } finally {
      await connection.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const publisher = this.publisher;
    this.publisher = undefined;
    await publisher?.then(({ connection }) => connection.close()).catch(() => undefined);
  }
}

/**
 * One connection's worth of consuming; ends normally (count) or with the connection's loss
 * (throws). Prefetch is twice the batch size: messages are gathered until the batch is full or its
 * wait is over, handed over together, and the next batch starts once this one is settled (its
 * messages, delivered meanwhile, already waiting).
 */
class ConsumerSession {
  count = 0;
  private busy = false;
  private finished = false;
  private readonly waiting: ConsumeMessage[] = [];
  /** Delivery tags received and not settled yet (for one multiple ack per batch). */
  private readonly unsettled = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: ChannelModel,
    private readonly queue: string,
    private readonly handler: (batch: DeliveryBatch) => Promise<void>,
    private readonly options: BatchConsumeOptions,
    private readonly limit: number | undefined,
    private readonly logger: Logger,
  ) {}

  run(channel: Channel): Promise<number> {
    const { signal, onConsuming } = this.options;
    const size = Math.max(1, this.options.batchSize);
    return new Promise<number>((resolve, reject) => {
      let consumerTag: string | undefined;
      const finish = (error?: Error): void => {
        if (this.finished) return;
        this.finished = true;
        clearTimeout(this.timer);
        signal.removeEventListener('abort', onAbort);
        if (error) return reject(error);
        // Unacknowledged messages (those gathered for a batch not started) go back to the queue when the channel closes.
        const cancel = consumerTag ? channel.cancel(consumerTag) : Promise.resolve();
        cancel.then(
          () => resolve(this.count),
          () => resolve(this.count),
        );
      };
      const onAbort = (): void => {
        if (!this.busy) finish();
      };
      signal.addEventListener('abort', onAbort);
      this.connection.on('close', () => finish(new Error('the broker connection closed')));
      channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'AMQP consumer channel error'));
      const next = (): void => {
        if (this.busy || this.finished || this.waiting.length === 0) return;
        if (this.waiting.length >= size || this.options.batchWaitMs <= 0) return void flush();
        this.timer ??= setTimeout(() => void flush(), this.options.batchWaitMs);
      };
      const flush = async (): Promise<void> => {
        clearTimeout(this.timer);
        this.timer = undefined;
        if (this.busy || this.finished) return;
        const room = this.limit === undefined ? size : Math.min(size, this.limit - this.count);
        const messages = this.waiting.splice(0, room);
        if (messages.length === 0) return;
        this.busy = true;
        const deliveries = messages.map((message) => delivery(channel, message, this.unsettled));
        try {
          await this.handler({
            deliveries,
            ack: async (some) => ackTogether(channel, some as AmqpDelivery[], this.unsettled),
          });
          for (const d of deliveries) if (!d.settled) d.giveBack();
        } catch (error) {
          this.logger.error({ err: error }, 'consumer: handler failed; the message goes back to the queue');
          await sleep(1000);
          for (const d of deliveries) if (!d.settled) d.giveBack();
        } finally {
          this.busy = false;
        }
        this.count += messages.length;
        if (signal.aborted || (this.limit !== undefined && this.count >= this.limit)) return finish();
        next();
      };
      const onMessage = (message: ConsumeMessage | null): void => {
        if (message === null) return finish(new Error('the broker cancelled the consumer'));
        if (this.finished) return; // redelivered to someone else when this channel closes
        this.unsettled.add(message.fields.deliveryTag);
        this.waiting.push(message);
        next();
      };
      void (async () => {
        try {
          // Batches: room for the next one, so that it is there when this one is acknowledged.
          await channel.prefetch(size > 1 ? size * 2 : 1);
          ({ consumerTag } = await channel.consume(this.queue, onMessage, { noAck: false }));
          if (signal.aborted) finish();
          else onConsuming?.();
        } catch (error) {
          finish(error as Error);
        }
      })();
    });
  }
}

interface AmqpDelivery extends Delivery {
  /** Acknowledged, requeued or dead-lettered. */
  readonly settled: boolean;
  readonly deliveryTag: number;
  /** Back to the queue at once (a delivery its handler left unsettled). */
  giveBack(): void;
  /** Acknowledged by a multiple ack of a later delivery: settled without a frame of its own. */
  markAcked(): void;
}

/** `unsettled`: the channel's delivery tags received and not acknowledged or rejected yet; a delivery leaves it when settled. */
function delivery(channel: Channel, message: ConsumeMessage, unsettled: Set<number>): AmqpDelivery {
  let settled = false;
  const tag = message.fields.deliveryTag;
  // After the connection is lost, ack/nack throw: the broker redelivers the message anyway.
  const safely = (fn: () => void): void => {
    settled = true;
    unsettled.delete(tag);
    try {
      fn();
    } catch {
      /* channel closed */
    }
  };
  return {
    body: message.content.toString('utf8'),
    redelivered: message.fields.redelivered,
    deliveryTag: tag,
    get settled() {
      return settled;
    },
    ack: async () => safely(() => channel.ack(message)),
    requeue: async (delayMs) => {
      settled = true;
      await sleep(delayMs);
      safely(() => channel.nack(message, false, true));
    },
    deadLetter: async () => safely(() => channel.nack(message, false, false)),
    giveBack: () => safely(() => channel.nack(message, false, true)),
    markAcked: () => {
      settled = true;
      unsettled.delete(tag);
    },
  };
}

/**
 * Acknowledges `deliveries` in one frame (`multiple`: every delivery up to the last one's tag)
 * when no other delivery of the channel below that tag is unsettled, else one frame each.
 */
function ackTogether(channel: Channel, deliveries: readonly AmqpDelivery[], unsettled: ReadonlySet<number>): void {
  const open = deliveries.filter((d) => !d.settled);
  if (open.length === 0) return;
  let last = open[0]!;
  for (const d of open) if (d.deliveryTag > last.deliveryTag) last = d;
  const mine = new Set(open.map((d) => d.deliveryTag));
  let others = false;
  for (const tag of unsettled) if (tag <= last.deliveryTag && !mine.has(tag)) others = true;
  if (others || open.length === 1) {
    for (const d of open) void d.ack();
    return;
  }
  for (const d of open) if (d !== last) d.markAcked();
  try {
    channel.ack({ fields: { deliveryTag: last.deliveryTag } } as ConsumeMessage, true);
  } catch {
    /* channel closed: the broker redelivers them */
  }
  last.markAcked();
}

/**
 * Deletes every exchange and queue the service declares under `prefix` (dead letters included):
 * for test runs and benchmarks that used a prefix of their own on a shared broker.
 */
export async function deleteTopology(url: string, prefix: string): Promise<void> {
  const connection = await (await amqplib()).connect(url);
  try {
    const channel = await connection.createChannel();
    const t = topology(prefix);
    for (const queue of t.queues.keys()) {
      await channel.deleteQueue(queue);
      await channel.deleteQueue(t.deadLetterQueue(queue));
    }
    await channel.deleteExchange(t.exchange);
    await channel.deleteExchange(t.deadLetterExchange);
  } finally {
    await connection.close();
  }
}
