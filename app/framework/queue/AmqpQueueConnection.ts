/**
 * RabbitMQ through amqplib. The service declares its own topology (durable exchange, queues and
 * dead-letter queue) on every channel it opens, so an empty broker, or one restarted without its
 * definitions, works at once. Publishing uses a confirm channel: publish() returns only when the
 * broker has taken every message. Consumers take one message at a time (prefetch 1), acknowledge
 * after the work, and reconnect by themselves with backoff when the broker goes away.
 */
import amqp from 'amqplib';
import type { ChannelModel, Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logger.js';
import { QueueUnavailableError, sleep, type ConsumeOptions, type Delivery, type QueueConnection, type QueueDepth } from './QueueConnection.js';
import { topology, type Topology } from './Topology.js';

const CONFIRM_TIMEOUT_MS = 10_000;
const MAX_RECONNECT_DELAY_MS = 5_000;

export class AmqpQueueConnection implements QueueConnection {
  readonly type = 'amqp';
  private publisher?: Promise<{ connection: ChannelModel; channel: ConfirmChannel }>;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly names: Topology,
    private readonly logger: Logger,
  ) {}

  private async connect(): Promise<ChannelModel> {
    // A short heartbeat notices a broker that vanished without closing the socket.
    const url = new URL(this.url);
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', '10');
    const connection = await amqp.connect(url.toString(), { timeout: 5000 });
    connection.on('error', (error: unknown) => this.logger.warn({ err: error }, 'AMQP connection error'));
    return connection;
  }

  private async declare(channel: Channel): Promise<void> {
    const t = this.names;
    await channel.assertExchange(t.exchange, 'topic', { durable: true });
    await channel.assertExchange(t.deadLetterExchange, 'fanout', { durable: true });
    for (const [queue, pattern] of t.queues) {
      await channel.assertQueue(queue, { durable: true, arguments: { 'x-dead-letter-exchange': t.deadLetterExchange } });
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

  async publish(topic: string, bodies: readonly string[]): Promise<void> {
    if (bodies.length === 0) return;
    let channel: ConfirmChannel;
    try {
      ({ channel } = await this.publisherChannel());
    } catch (error) {
      throw new QueueUnavailableError('The message broker cannot be reached', error);
    }
    try {
      for (const body of bodies) {
        channel.publish(this.names.exchange, topic, Buffer.from(body), { persistent: true, contentType: 'application/json' });
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no publisher confirm in time')), CONFIRM_TIMEOUT_MS);
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

  async consume(queue: string, handler: (delivery: Delivery) => Promise<void>, options: ConsumeOptions): Promise<number> {
    let handled = 0;
    let delay = 250;
    const left = (): number | undefined => (options.maxMessages === undefined ? undefined : options.maxMessages - handled);
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
      const session = new ConsumerSession(connection, queue, handler, options.signal, left(), this.logger, options.onConsuming);
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

/** One connection's worth of consuming; ends normally (count) or with the connection's loss (throws). */
class ConsumerSession {
  count = 0;
  private busy = false;
  private finished = false;

  constructor(
    private readonly connection: ChannelModel,
    private readonly queue: string,
    private readonly handler: (delivery: Delivery) => Promise<void>,
    private readonly signal: AbortSignal,
    private readonly limit: number | undefined,
    private readonly logger: Logger,
    private readonly onConsuming?: () => void,
  ) {}

  run(channel: Channel): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let consumerTag: string | undefined;
      const finish = (error?: Error): void => {
        if (this.finished) return;
        this.finished = true;
        this.signal.removeEventListener('abort', onAbort);
        if (error) return reject(error);
        // Unacknowledged messages (none while idle) go back to the queue when the channel closes.
        const cancel = consumerTag ? channel.cancel(consumerTag) : Promise.resolve();
        cancel.then(
          () => resolve(this.count),
          () => resolve(this.count),
        );
      };
      const onAbort = (): void => {
        if (!this.busy) finish();
      };
      this.signal.addEventListener('abort', onAbort);
      this.connection.on('close', () => finish(new Error('the broker connection closed')));
      channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'AMQP consumer channel error'));
      const onMessage = async (message: ConsumeMessage | null): Promise<void> => {
        if (message === null) return finish(new Error('the broker cancelled the consumer'));
        if (this.finished) return; // redelivered to someone else when this channel closes
        this.busy = true;
        try {
          await this.handler(delivery(channel, message));
        } catch (error) {
          this.logger.error({ err: error }, 'consumer: handler failed; the message goes back to the queue');
          await sleep(1000);
          try {
            channel.nack(message, false, true);
          } catch {
            /* the channel is gone: the broker requeues it anyway */
          }
        } finally {
          this.busy = false;
        }
        this.count++;
        if (this.signal.aborted || (this.limit !== undefined && this.count >= this.limit)) finish();
      };
      void (async () => {
        try {
          await channel.prefetch(1);
          ({ consumerTag } = await channel.consume(this.queue, (message) => void onMessage(message), { noAck: false }));
          if (this.signal.aborted) finish();
          else this.onConsuming?.();
        } catch (error) {
          finish(error as Error);
        }
      })();
    });
  }
}

function delivery(channel: Channel, message: ConsumeMessage): Delivery {
  // After the connection is lost, ack/nack throw: the broker redelivers the message anyway.
  const safely = (fn: () => void): void => {
    try {
      fn();
    } catch {
      /* channel closed */
    }
  };
  return {
    body: message.content.toString('utf8'),
    redelivered: message.fields.redelivered,
    ack: async () => safely(() => channel.ack(message)),
    requeue: async (delayMs) => {
      await sleep(delayMs);
      safely(() => channel.nack(message, false, true));
    },
    deadLetter: async () => safely(() => channel.nack(message, false, false)),
  };
}

/**
 * Deletes every exchange and queue the service declares under `prefix` (dead letters included):
 * for test runs and benchmarks that used a prefix of their own on a shared broker.
 */
export async function deleteTopology(url: string, prefix: string): Promise<void> {
  const connection = await amqp.connect(url);
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
