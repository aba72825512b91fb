import { FrameworkServices, inject, injectable, type Logger, type QueueConnection } from '#framework';
import { EVENT_TOPIC, PRIORITY_EVENT_TOPIC, type EventMessage } from './EventQueue.js';
import { Outbox, type OutboxRow } from './Outbox.js';

/**
 * The outbox relay: leases the outbox rows that are due (new, or whose retry time came) and heads
 * of their entity's chain, and publishes one message per row to `event.delivery` (or
 * `event.delivery.priority`). It runs inside every delivery consumer process (DeliveryConsumer).
 *
 * A publish that fails, or a message the queue loses, leaves the row's lease (EVENT_LEASE_MS) to
 * run out: the row is published again. Nothing is marked delivered here; only the consumer that
 * delivered the event does that, so a relay crash at any point costs a re-publish, never an event.
 *
 * At most `maxInFlight` rows are published and not yet taken by a consumer: the queue never holds
 * a backlog longer than a lease, so a lease that runs out means a message lost, not one waiting
 * behind thousands (which would be published again, and again, every lease).
 *
 * At most `perSubscription` rows of one subscription are leased by this process (published or
 * being delivered) at once: a slow or dead destination never holds all of a consumer's slots, so the other
 * subscriptions' events keep going out (issue 26). Heads of different entities are published
 * together, so consumers deliver different entities in parallel.
 */
@injectable()
export class OutboxRelay {
  constructor(
    @inject('Dispensary\\Eventing\\Model\\Outbox') private readonly outbox: Outbox,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
    private readonly maxInFlight = 1000,
    /** Deliveries of one subscription under way at once in this process (EVENT_SUBSCRIPTION_CONCURRENCY). */
    private readonly perSubscription = 16,
  ) {}

  /** Publishes up to `limit` due rows (priority ones first); answers how many. Throws when the queue refuses them. */
  async publishDue(queue: QueueConnection, leaseMs: number, limit = 100): Promise<number> {
    // The room left under maxInFlight and each subscription's share are read in one statement.
    return this.publish(
      queue,
      await this.outbox.leaseForPublish(limit, leaseMs, undefined, this.perSubscription, this.maxInFlight),
    );
  }

  /** After `row` was settled, publishes the next event of its chain at once, rather than at the next poll. */
  async publishNext(queue: QueueConnection, row: OutboxRow, leaseMs: number): Promise<number> {
    const chain = { subscription: row.subscription_name, entity: row.entity_key };
    return this.publish(queue, await this.outbox.leaseForPublish(1, leaseMs, chain, this.perSubscription));
  }

  private async publish(queue: QueueConnection, leased: { token: string; rows: OutboxRow[] }): Promise<number> {
    const { token, rows } = leased;
    if (rows.length === 0) return 0;
    const message = (row: OutboxRow): string => JSON.stringify({ id: row.outbox_id, token } satisfies EventMessage);
    try {
      const priority = rows.filter((row) => row.priority > 0);
      const ordinary = rows.filter((row) => row.priority === 0);
      if (priority.length > 0) await queue.publish(PRIORITY_EVENT_TOPIC, priority.map(message));
      if (ordinary.length > 0) await queue.publish(EVENT_TOPIC, ordinary.map(message));
    } catch (error) {
      // Some may have gone out: released rows published twice are a duplicate the consumer drops.
      await this.outbox
        .release(
          rows.map((row) => row.outbox_id),
          token,
        )
        .catch(() => undefined);
      throw error;
    }
    this.logger.debug({ published: rows.length }, 'outbox relay: events published');
    return rows.length;
  }
}
