import { Counter, Histogram, type Registry } from 'prom-client';
import { FrameworkServices, inject, injectable, sleep, type ConsumeOptions, type Logger, type QueueConsumer } from '#framework';
import type { WebhookTransport } from '../../Webhooks/Api/payloadFilters.js';
import { Outbox, type OutboxRow } from './Outbox.js';
import { secretOf } from './Subscription.js';
import { SubscriptionRegistry } from './SubscriptionRegistry.js';

/**
 * `queue:consumers:start event.delivery`: sends the outbox's events to their subscriptions'
 * destinations, signed, one at a time per consumer (run several for more). A 2xx answer delivers
 * the event; a timeout, a network error or any other status is retried with exponential backoff
 * (`baseDelayMs` * 2^(attempt-1), at most an hour) and dead-lettered after `maxAttempts`
 * (`events:dead-letter:list`, `events:dead-letter:retry`). At least once: a consumer killed
 * between sending and recording leaves its lease to run out, and the event is sent again with the
 * same `webhook-id`.
 *
 * Delivered events are kept `retentionHours` (EVENT_RETENTION_HOURS; 0 keeps them), then deleted
 * by an idle consumer, at most every five minutes per consumer: the outbox does not grow forever.
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
    private readonly maxAttempts = 8,
    private readonly baseDelayMs = 1000,
    private readonly timeoutMs = 10_000,
    /** How long a taken event is someone else's: longer than a delivery can take. */
    private readonly leaseMs = 30_000,
    private readonly pollMs = 250,
    private readonly retentionHours = 168,
    private readonly purgeIntervalMs = 300_000,
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

  async run(options: ConsumeOptions): Promise<number> {
    let handled = 0;
    options.onConsuming?.();
    while (!options.signal.aborted && (options.maxMessages === undefined || handled < options.maxMessages)) {
      const row = await this.outbox.claim(Math.max(this.leaseMs, this.timeoutMs + 1000));
      if (!row) {
        await this.purgeIfDue();
        await sleep(this.pollMs, options.signal);
        continue;
      }
      await this.deliver(row);
      handled++;
    }
    return handled;
  }

  /** Deletes the events delivered longer ago than the retention, when the last purge is older than its interval; never throws. */
  async purgeIfDue(): Promise<void> {
    const now = Date.now();
    if (this.retentionHours === 0 || now - this.lastPurge < this.purgeIntervalMs) return;
    this.lastPurge = now;
    try {
      const deleted = await this.outbox.purgeDelivered(now - this.retentionHours * 3_600_000);
      if (deleted > 0) this.logger.info({ deleted, retentionHours: this.retentionHours }, 'delivered events purged from the outbox');
    } catch (error) {
      this.logger.warn({ err: error }, 'purging delivered events failed; the next idle moment tries again');
    }
  }

  async deliver(row: OutboxRow): Promise<void> {
    const started = Date.now();
    const attempts = row.attempts + 1;
    const subscription = await this.registry.byName(row.subscription_name);
    const secret = subscription ? secretOf(subscription) : null;
    let failure: string | undefined;
    if (!subscription) failure = 'unsubscribed';
    else if (!secret) failure = 'no_secret';
    else {
      const result = await this.transport.post({ url: subscription.destination, body: row.payload, id: row.event_uuid, secret, timeoutMs: this.timeoutMs });
      if (result.kind === 'answer' && result.status >= 200 && result.status < 300) {
        await this.outbox.delivered(row.outbox_id);
        this.measure(row.subscription_name, 'delivered', started);
        this.logger.info({ subscription: row.subscription_name, eventId: row.event_uuid, attempts, durationMs: Date.now() - started }, 'event delivered');
        return;
      }
      failure = result.kind === 'answer' ? `http ${result.status}` : result.kind === 'timeout' ? 'timeout' : result.kind === 'refused' ? `refused: ${result.reason}` : `network: ${result.reason}`;
    }
    const dead = attempts >= this.maxAttempts || failure === 'unsubscribed';
    const retryAt = dead ? 'dead' : Date.now() + Math.min(this.baseDelayMs * 2 ** (attempts - 1), 3_600_000);
    await this.outbox.failed(row.outbox_id, attempts, failure, retryAt);
    this.measure(row.subscription_name, dead ? 'dead_lettered' : 'failed', started);
    this.logger.warn({ subscription: row.subscription_name, eventId: row.event_uuid, attempts, reason: failure, deadLettered: dead }, 'event delivery failed');
  }
}
