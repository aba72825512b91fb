import { Counter, Histogram, type Registry } from 'prom-client';
import {
  FrameworkServices,
  inject,
  injectable,
  sleep,
  type ConsumeOptions,
  type Delivery,
  type Logger,
  type QueueConnection,
  type QueueConsumer,
} from '#framework';
import type { WebhookTransport } from '../../Webhooks/Api/payloadFilters.js';
import { EVENT_TOPICS, EventQueue, parseEventMessage } from './EventQueue.js';
import { Outbox, type OutboxRow } from './Outbox.js';
import { OutboxRelay } from './OutboxRelay.js';
import { secretOf } from './Subscription.js';
import { SubscriptionRegistry } from './SubscriptionRegistry.js';

/**
 * `queue:consumers:start event.delivery`: delivers the outbox's events through the queue. In one
 * process it runs the outbox relay (OutboxRelay: due rows to `event.delivery` and
 * `event.delivery.priority`) and two consumers, one per queue, so priority events never wait
 * behind a backlog of ordinary ones. Each message names an outbox row; the consumer takes the
 * row (Outbox.takeForDelivery: dropped when already settled, not due, not the head of its
 * entity's chain, or being delivered elsewhere), POSTs the event signed, records the outcome on
 * the row and acknowledges the message. A 2xx answer delivers the event; a timeout, a network
 * error or any other status is retried with exponential backoff (`baseDelayMs` * 2^(attempt-1),
 * at most an hour: the row's next attempt, which the relay publishes when due) and dead-lettered
 * after `maxAttempts` (`events:dead-letter:list`, `events:dead-letter:retry`). At least once: a
 * consumer killed between sending and recording leaves its lease to run out, and the relay
 * publishes the row again; it is sent again with the same `webhook-id`.
 *
 * Delivered events are kept `retentionHours` (EVENT_RETENTION_HOURS; 0 keeps them), then deleted
 * by an idle relay, at most every five minutes per consumer: the outbox does not grow forever.
 */
@injectable()
export class DeliveryConsumer implements QueueConsumer {
  readonly name = 'event.delivery';
  private readonly attempts: Counter<'subscription' | 'outcome'>;
  private readonly duration: Histogram<'subscription' | 'outcome'>;
  private lastPurge = Number.NEGATIVE_INFINITY;

  constructor(
    @inject('Dispensary\\Eventing\\Model\\Outbox') private readonly outbox: Outbox,
    @inject('Dispensary\\Eventing\\Model\\SubscriptionRegistry') private readonly registry: SubscriptionRegistry,
    @inject('Dispensary\\Webhooks\\Model\\WebhookTransport') private readonly transport: WebhookTransport,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
    @inject(FrameworkServices.MetricsRegistry) metrics: Registry,
    @inject('Dispensary\\Eventing\\Model\\EventQueue') private readonly queues: EventQueue,
    @inject('Dispensary\\Eventing\\Model\\OutboxRelay') private readonly relay: OutboxRelay,
    private readonly maxAttempts = 8,
    private readonly baseDelayMs = 1000,
    private readonly timeoutMs = 10_000,
    /** How long a published or taken event is someone else's: longer than a delivery can take. */
    private readonly leaseMs = 30_000,
    /** How often the relay looks for due events when it found none. */
    private readonly pollMs = 250,
    private readonly retentionHours = 168,
    private readonly purgeIntervalMs = 300_000,
    /** How many of an entity's next events a consumer delivers straight after one, before queueing the rest. */
    private readonly chainBurst = 16,
  ) {
    this.attempts = new Counter({
      name: 'event_delivery_attempts_total',
      help: 'Event delivery attempts by subscription and outcome (delivered, failed, dead_lettered)',
      labelNames: ['subscription', 'outcome'],
      registers: [metrics],
    });
    this.duration = new Histogram({
      name: 'event_delivery_duration_seconds',
      help: 'Duration of event delivery attempts by subscription and outcome',
      labelNames: ['subscription', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [metrics],
    });
  }

  private measure(subscription: string, outcome: string, started: number): void {
    this.attempts.inc({ subscription, outcome });
    this.duration.observe({ subscription, outcome }, (Date.now() - started) / 1000);
  }

  private get deliveryLeaseMs(): number {
    return Math.max(this.leaseMs, this.timeoutMs + 1000);
  }

  /** Relays and consumes until the signal aborts or `maxMessages` messages were handled (both queues together). */
  async run(options: ConsumeOptions): Promise<number> {
    const queue = this.queues.open();
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    if (options.signal.aborted) stop.abort();
    options.signal.addEventListener('abort', abort, { once: true });
    let handled = 0;
    const handler = async (delivery: Delivery): Promise<void> => {
      await this.handle(queue, delivery, stop.signal);
      handled++;
      if (options.maxMessages !== undefined && handled >= options.maxMessages) stop.abort();
    };
    const consuming = new Set<string>();
    const lane = (topic: string) =>
      queue.consume(this.queues.queueName(topic), handler, {
        signal: stop.signal,
        maxMessages: options.maxMessages,
        onConsuming: () => {
          consuming.add(topic);
          if (consuming.size === EVENT_TOPICS.length) options.onConsuming?.();
        },
      });
    try {
      await Promise.all([this.relayLoop(queue, stop.signal), ...EVENT_TOPICS.map(lane)]);
    } finally {
      options.signal.removeEventListener('abort', abort);
      stop.abort();
      await queue.close();
    }
    return handled;
  }

  private async relayLoop(queue: QueueConnection, signal: AbortSignal): Promise<void> {
    let delay = this.pollMs;
    while (!signal.aborted) {
      try {
        const published = await this.relay.publishDue(queue, this.leaseMs);
        delay = this.pollMs;
        if (published > 0) continue;
        await this.purgeIfDue();
      } catch (error) {
        const message = 'outbox relay: publishing failed; the events stay in the outbox';
        this.logger.warn({ err: error, retryInMs: delay }, message);
        delay = Math.min(delay * 2, 5000);
      }
      await sleep(delay, signal);
    }
  }

  /**
   * One message: the row it names is delivered (and the message acknowledged), or the message is
   * dropped. Once the row is settled, the next events of its entity that are due follow at once
   * (at most `chainBurst` of them, taken by lease like any other), and the one after those is
   * published: one entity's events do not each wait for a trip through the queue.
   */
  async handle(queue: QueueConnection, delivery: Delivery, signal?: AbortSignal): Promise<void> {
    const message = parseEventMessage(delivery.body);
    if (!message) return delivery.deadLetter('not an event message');
    const row = await this.outbox.takeForDelivery(message.id, message.token, this.deliveryLeaseMs);
    if (typeof row === 'string') {
      const context = { outboxId: message.id, skipped: row, redelivered: delivery.redelivered };
      this.logger.debug(context, 'event message dropped');
      return delivery.ack();
    }
    let settled = await this.deliver(row);
    await delivery.ack();
    let last = row;
    for (let burst = 0; settled && burst < this.chainBurst && !signal?.aborted; burst++) {
      const next = await this.outbox.takeHeadForDelivery(row, this.deliveryLeaseMs);
      if (!next) return;
      last = next;
      settled = await this.deliver(next);
    }
    // The next event of the entity waited for this one: publish it now rather than at the relay's next poll.
    if (!settled) return;
    await this.relay
      .publishNext(queue, last, this.leaseMs)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'outbox relay: publishing failed'));
  }

  /** Deletes the events delivered longer ago than the retention, when the last purge is older than its interval; never throws. */
  async purgeIfDue(): Promise<void> {
    const now = Date.now();
    if (this.retentionHours === 0 || now - this.lastPurge < this.purgeIntervalMs) return;
    this.lastPurge = now;
    try {
      const deleted = await this.outbox.purgeDelivered(now - this.retentionHours * 3_600_000);
      if (deleted > 0)
        this.logger.info({ deleted, retentionHours: this.retentionHours }, 'delivered events purged from the outbox');
    } catch (error) {
      this.logger.warn({ err: error }, 'purging delivered events failed; the next idle moment tries again');
    }
  }

  /** One attempt; answers true when the row is settled (delivered or dead), false when it will be retried. */
  async deliver(row: OutboxRow): Promise<boolean> {
    const started = Date.now();
    const attempts = row.attempts + 1;
    const subscription = await this.registry.byName(row.subscription_name);
    const secret = subscription ? secretOf(subscription) : null;
    let failure: string | undefined;
    if (!subscription) failure = 'unsubscribed';
    else if (!secret) failure = 'no_secret';
    else {
      const result = await this.transport.post({
        url: subscription.destination,
        body: row.payload,
        id: row.event_uuid,
        secret,
        timeoutMs: this.timeoutMs,
      });
      if (result.kind === 'answer' && result.status >= 200 && result.status < 300) {
        await this.outbox.delivered(row.outbox_id);
        this.measure(row.subscription_name, 'delivered', started);
        this.logger.info(
          { subscription: row.subscription_name, eventId: row.event_uuid, attempts, durationMs: Date.now() - started },
          'event delivered',
        );
        return true;
      }
      failure =
        result.kind === 'answer'
          ? `http ${result.status}`
          : result.kind === 'timeout'
            ? 'timeout'
            : result.kind === 'refused'
              ? `refused: ${result.reason}`
              : `network: ${result.reason}`;
    }
    const dead = attempts >= this.maxAttempts || failure === 'unsubscribed';
    const retryAt = dead ? 'dead' : Date.now() + Math.min(this.baseDelayMs * 2 ** (attempts - 1), 3_600_000);
    await this.outbox.failed(row.outbox_id, attempts, failure, retryAt);
    this.measure(row.subscription_name, dead ? 'dead_lettered' : 'failed', started);
    this.logger.warn(
      { subscription: row.subscription_name, eventId: row.event_uuid, attempts, reason: failure, deadLettered: dead },
      'event delivery failed',
    );
    return dead;
  }
}
