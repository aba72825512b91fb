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
import type { WebhookTransportInterface as WebhookTransport } from '../../Webhooks/Api/WebhookTransportInterface.js';
import { contentTypeOf } from './Envelope.js';
import { EVENT_TOPICS, EventQueue, parseEventMessage, type EventMessage } from './EventQueue.js';
import { Outbox, type OutboxRow } from './Outbox.js';
import { OutboxRelay } from './OutboxRelay.js';
import { secretOf } from './Subscription.js';
import { SubscriptionRegistry } from './SubscriptionRegistry.js';

/** Standard Webhooks' recommended retry delays (ms) after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** The longest wait a receiver's `Retry-After` can ask for (24 h): a longer one is cut to it. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * The delay a `Retry-After` value asks for, in ms (RFC 9110: delay-seconds or an HTTP-date),
 * bounded to [0, MAX_RETRY_AFTER_MS]; undefined when absent or not understood.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const date = Date.parse(text);
    if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
    ms = date - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** A counting semaphore: at most `size` holders at once. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * `queue:consumers:start event.delivery`: delivers the outbox's events through the queue. In one
 * process it runs the outbox relay (OutboxRelay: due rows to `event.delivery` and
 * `event.delivery.priority`) and two consumers, one per queue, so priority events never wait
 * behind a backlog of ordinary ones. Each message names an outbox row; the consumer acknowledges the
 * message at once (the row is the truth, the message only wakes a consumer), then takes the
 * row (Outbox.takeForDelivery: dropped when already settled, not due, not the head of its
 * entity's chain, or being delivered elsewhere) under its own lease and delivers it beside up to `concurrency` others of its queue (EVENT_CONCURRENCY): a slow receiver
 * holds one slot for its timeout, not the consumer, and one subscription at most `perSubscription`
 * of them (EVENT_SUBSCRIPTION_CONCURRENCY; a row beyond goes back to the outbox). It POSTs the event signed and records the
 * outcome on the row. A 2xx answer delivers the event; `410 Gone` dead-letters it and disables
 * the subscription; a timeout, a network error or any other status is retried after the next
 * delay of `retrySchedule` (EVENT_RETRY_SCHEDULE; a 429 or 503 with `Retry-After` after the
 * delay it asks for, at most 24 h): the row's next attempt, which the relay publishes when due,
 * never a retry in-line. After the last delay's attempt the event is dead-lettered
 * (`events:dead-letter:list`, `events:dead-letter:retry`). At least once: a consumer killed
 * between sending and recording leaves its lease to run out, and the relay publishes the row
 * again; it is sent again with the same `webhook-id`.
 *
 * The subscription is read from the database before each attempt (SubscriptionRegistry): one
 * removed or disabled meanwhile gets nothing more, its event is dead-lettered (`unsubscribed`,
 * `disabled`).
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
    /** The delays (ms) before each retry; the event is dead-lettered after `retrySchedule.length + 1` attempts. */
    private readonly retrySchedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS,
    private readonly timeoutMs = 10_000,
    /** How long a published or taken event is someone else's: longer than a delivery can take. */
    private readonly leaseMs = 30_000,
    /** How often the relay looks for due events when it found none. */
    private readonly pollMs = 250,
    private readonly retentionHours = 168,
    private readonly purgeIntervalMs = 300_000,
    /** How many of an entity's next events a consumer delivers straight after one, before queueing the rest. */
    private readonly chainBurst = 16,
    /** Deliveries under way at once in this consumer, per queue (EVENT_CONCURRENCY). */
    private readonly concurrency = 32,
    /** Deliveries of one subscription under way at once in this consumer (EVENT_SUBSCRIPTION_CONCURRENCY). */
    private readonly perSubscription = 16,
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

  /** The attempts an event gets before it is dead-lettered. */
  get maxAttempts(): number {
    return this.retrySchedule.length + 1;
  }

  /** Relays and consumes until the signal aborts or `maxMessages` messages were handled (both queues together). */
  async run(options: ConsumeOptions): Promise<number> {
    const queue = this.queues.open();
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    if (options.signal.aborted) stop.abort();
    options.signal.addEventListener('abort', abort, { once: true });
    let handled = 0;
    const working = new Set<Promise<void>>();
    const bySubscription = new Map<string, number>();
    // Each queue has slots of its own: priority events never wait for a slot ordinary ones hold.
    const handlerFor =
      (slots: Slots) =>
      async (delivery: Delivery): Promise<void> => {
        await slots.acquire();
        let message: EventMessage | undefined;
        try {
          message = parseEventMessage(delivery.body);
          // The message only says "row N is due"; the row is the truth. Settled at once, so the
          // lane takes its next message while this one's row is taken and delivered beside it:
          // a consumer that dies now leaves the relay's lease to run out, and the row is published again.
          if (message) await delivery.ack();
          else await delivery.deadLetter('not an event message');
        } catch (error) {
          slots.release();
          throw error;
        }
        handled++;
        if (options.maxMessages !== undefined && handled >= options.maxMessages) stop.abort();
        if (!message) return slots.release();
        const named = message;
        const work = this.takeAndFollow(queue, named, delivery.redelivered, bySubscription, stop.signal)
          .catch((error: unknown) =>
            this.logger.warn(
              { err: error, outboxId: named.id },
              'event delivery failed unexpectedly; its lease runs out and it is sent again',
            ),
          )
          .finally(() => {
            slots.release();
            working.delete(work);
          });
        working.add(work);
      };
    const consuming = new Set<string>();
    const lane = (topic: string) =>
      queue.consume(this.queues.queueName(topic), handlerFor(new Slots(this.concurrency)), {
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
      await Promise.allSettled([...working]);
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
   * In `run`'s slots: takes the row a message names (dropped when settled, not due, not the
   * head of its chain, or being delivered elsewhere), gives it back when its subscription has
   * its share of this consumer's slots (`perSubscription`: a slow destination), else delivers it
   * and follows its chain.
   */
  private async takeAndFollow(
    queue: QueueConnection,
    message: EventMessage,
    redelivered: boolean,
    bySubscription: Map<string, number>,
    signal: AbortSignal,
  ): Promise<void> {
    const row = await this.outbox.takeForDelivery(message.id, message.token, this.deliveryLeaseMs);
    if (typeof row === 'string') {
      this.logger.debug({ outboxId: message.id, skipped: row, redelivered }, 'event message dropped');
      return;
    }
    const name = row.subscription_name;
    const busy = bySubscription.get(name) ?? 0;
    if (busy >= this.perSubscription) {
      // The subscription has its share of this consumer's slots (a slow destination): the row goes back for later.
      await this.outbox.release([row.outbox_id], row.lease_token!);
      return;
    }
    bySubscription.set(name, busy + 1);
    try {
      await this.follow(queue, row, signal);
    } finally {
      bySubscription.set(name, (bySubscription.get(name) ?? 1) - 1);
    }
  }

  /**
   * The row a message names, taken under this consumer's lease, and the message acknowledged;
   * undefined when the message is dropped (a duplicate, or a row not to be delivered now). The
   * row, not the message, is the truth from here: a consumer that dies now leaves a lease that
   * runs out, and the relay publishes the row again.
   */
  private async take(delivery: Delivery): Promise<OutboxRow | undefined> {
    const message = parseEventMessage(delivery.body);
    if (!message) {
      await delivery.deadLetter('not an event message');
      return undefined;
    }
    const row = await this.outbox.takeForDelivery(message.id, message.token, this.deliveryLeaseMs);
    if (typeof row === 'string') {
      const context = { outboxId: message.id, skipped: row, redelivered: delivery.redelivered };
      this.logger.debug(context, 'event message dropped');
      await delivery.ack();
      return undefined;
    }
    await delivery.ack();
    return row;
  }

  /**
   * One message, start to end, in line (tests; `run` takes and delivers in slots of its own):
   * the row it names is delivered (and the message acknowledged), or the message is dropped.
   */
  async handle(queue: QueueConnection, delivery: Delivery, signal?: AbortSignal): Promise<void> {
    const row = await this.take(delivery);
    if (row) await this.follow(queue, row, signal);
  }

  /**
   * Delivers a taken row; once it is settled, the next events of its entity that are due follow
   * at once (at most `chainBurst` of them, taken by lease like any other), and the one after
   * those is published: one entity's events do not each wait for a trip through the queue.
   */
  private async follow(queue: QueueConnection, row: OutboxRow, signal?: AbortSignal): Promise<void> {
    // A delivered row and the take of its successor are one statement where the database allows
    // (Outbox.deliveredThenTakeHead): per event of a chain, the subscription's read, the call, and that.
    const following = (burst: number) => burst < this.chainBurst && !signal?.aborted;
    let outcome = await this.attempt(row, following(0));
    let last = row;
    for (let burst = 0; outcome.settled && following(burst); burst++) {
      const next = outcome.taken ? outcome.next : await this.outbox.takeHeadForDelivery(row, this.deliveryLeaseMs);
      if (!next) return;
      last = next;
      outcome = await this.attempt(next, following(burst + 1));
    }
    if (outcome.taken && outcome.next && signal?.aborted) {
      // Taken with its predecessor's settling, then the consumer was stopped: give it back at once.
      await this.outbox.release([outcome.next.outbox_id], outcome.next.lease_token!);
      return;
    }
    const settled = outcome.settled;
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
    return (await this.attempt(row, false)).settled;
  }

  /**
   * One attempt. `takeNext`: when the event is delivered, its chain's next head is taken with the
   * same statement (`taken`, `next`: Outbox.deliveredThenTakeHead); else the follower takes it.
   */
  private async attempt(
    row: OutboxRow,
    takeNext: boolean,
  ): Promise<{ settled: boolean; taken: boolean; next?: OutboxRow }> {
    const started = Date.now();
    const attempts = row.attempts + 1;
    // Read now, from the database: a subscription removed or disabled since the event gets nothing more.
    const subscription = await this.registry.byName(row.subscription_name);
    const secret = subscription ? secretOf(subscription) : null;
    let failure: string | undefined;
    let final = false;
    let delayMs: number | undefined;
    if (!subscription) [failure, final] = ['unsubscribed', true];
    else if (subscription.disabled) [failure, final] = [`disabled: ${subscription.disabled.reason}`, true];
    else if (!secret) failure = 'no_secret';
    else {
      const result = await this.transport.post({
        url: subscription.destination,
        body: row.payload,
        id: row.event_uuid,
        secret,
        timeoutMs: this.timeoutMs,
        contentType: contentTypeOf(row.format),
      });
      if (result.kind === 'answer' && result.status >= 200 && result.status < 300) {
        const next = takeNext
          ? await this.outbox.deliveredThenTakeHead(row, this.deliveryLeaseMs)
          : await this.outbox.delivered(row.outbox_id);
        this.measure(row.subscription_name, 'delivered', started);
        this.logger.info(
          { subscription: row.subscription_name, eventId: row.event_uuid, attempts, durationMs: Date.now() - started },
          'event delivered',
        );
        return { settled: true, taken: takeNext, ...(next ? { next } : {}) };
      }
      if (result.kind === 'answer' && result.status === 410) {
        // The receiver says the endpoint is gone for good: stop, and stop sending it anything else.
        [failure, final] = ['http 410 gone: subscription disabled', true];
        await this.registry.disable(row.subscription_name, `http 410 Gone from ${subscription.destination}`);
        this.logger.warn(
          { subscription: row.subscription_name, destination: subscription.destination },
          'event destination answered 410 Gone: subscription disabled',
        );
      } else if (result.kind === 'answer') {
        failure = `http ${result.status}`;
        if (result.status === 429 || result.status === 503) delayMs = retryAfterMs(result.retryAfter);
      } else
        failure =
          result.kind === 'timeout'
            ? 'timeout'
            : result.kind === 'refused'
              ? `refused: ${result.reason}`
              : `network: ${result.reason}`;
    }
    const dead = final || attempts >= this.maxAttempts;
    const retryAt = dead ? 'dead' : Date.now() + (delayMs ?? this.retrySchedule[attempts - 1]!);
    await this.outbox.failed(row.outbox_id, attempts, failure, retryAt);
    this.measure(row.subscription_name, dead ? 'dead_lettered' : 'failed', started);
    this.logger.warn(
      {
        subscription: row.subscription_name,
        eventId: row.event_uuid,
        attempts,
        reason: failure,
        deadLettered: dead,
        ...(dead ? {} : { retryAt: new Date(retryAt as number).toISOString() }),
      },
      'event delivery failed',
    );
    return { settled: dead, taken: false };
  }
}
