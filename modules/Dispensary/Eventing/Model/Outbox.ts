import { randomUUID } from 'node:crypto';
import { ConnectionProvider, FrameworkServices, inject, injectable } from '#framework';
import { selectFields } from '../../Webhooks/Api/payloadFilters.js';
import type { Subscription } from './Subscription.js';

const TABLE = 'event_outbox';

export interface OutboxRow {
  readonly outbox_id: number;
  readonly event_uuid: string;
  readonly subscription_name: string;
  readonly event_name: string;
  readonly entity_key: string;
  readonly payload: string;
  readonly status: string;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly created_at: number;
}

/**
 * The event's entity, for per-entity order: the first top-level value that carries its own id
 * (`recommendation.recommendation_id`, `patient.patient_id`); else the event alone (no order).
 */
function entityKey(data: Record<string, unknown>, fallback: string): string {
  for (const [key, value] of Object.entries(data)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const id = (value as Record<string, unknown>)[`${key}_id`];
      if (typeof id === 'string' || typeof id === 'number') return `${key}:${id}`.slice(0, 255);
    }
  }
  return fallback;
}

const numeric = (row: Record<string, unknown>): OutboxRow =>
  ({ ...row, outbox_id: Number(row.outbox_id), attempts: Number(row.attempts), created_at: Number(row.created_at) }) as unknown as OutboxRow;

/** The transactional outbox (migration 20261125110010): written in the request's transaction, read by the delivery consumer. */
@injectable()
export class Outbox {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  /** Records the event for the subscription, in the current transaction when there is one. */
  async record(subscription: Subscription, eventName: string, data: Record<string, unknown>): Promise<void> {
    const uuid = randomUUID();
    const now = Date.now();
    const payload = {
      event_id: uuid,
      event: subscription.name,
      created_at: new Date(now).toISOString(),
      data: selectFields(subscription.fields.map((field) => ({ name: field.name })), data),
    };
    await this.connection.get()(TABLE).insert({
      event_uuid: uuid,
      subscription_name: subscription.name,
      event_name: eventName,
      entity_key: entityKey(data, `event:${uuid}`),
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: 0,
      created_at: now,
    });
  }

  /**
   * Takes the oldest row that is due, not leased, and has no earlier pending row of the same
   * subscription and entity, for `leaseMs`; undefined when none. Several consumers may race for a
   * row: the conditional update lets exactly one win.
   */
  async claim(leaseMs: number): Promise<OutboxRow | undefined> {
    const db = this.connection.knex;
    const now = Date.now();
    const candidates = (await db(`${TABLE} as o`)
      .select('o.*')
      .where('o.status', 'pending')
      .where('o.next_attempt_at', '<=', now)
      .where('o.lease_until', '<', now)
      .whereNotExists(function () {
        void this.select(db.raw('1'))
          .from(`${TABLE} as p`)
          .whereRaw('p.subscription_name = o.subscription_name')
          .whereRaw('p.entity_key = o.entity_key')
          .whereRaw('p.outbox_id < o.outbox_id')
          .where('p.status', 'pending');
      })
      .orderBy('o.outbox_id')
      .limit(10)) as Record<string, unknown>[];
    for (const candidate of candidates) {
      const taken = await db(TABLE)
        .where({ outbox_id: candidate.outbox_id, status: 'pending' })
        .where('lease_until', '<', now)
        .update({ lease_until: now + leaseMs });
      if (taken === 1) return numeric(candidate);
    }
    return undefined;
  }

  async delivered(id: number): Promise<void> {
    await this.connection.knex(TABLE).where({ outbox_id: id }).update({ status: 'delivered', delivered_at: Date.now(), lease_until: 0, last_error: null });
  }

  /** A failed attempt: tried again at `retryAt`, or dead when `dead`. */
  async failed(id: number, attempts: number, reason: string, retryAt: number | 'dead'): Promise<void> {
    await this.connection
      .knex(TABLE)
      .where({ outbox_id: id })
      .update({ attempts, last_error: reason.slice(0, 255), lease_until: 0, ...(retryAt === 'dead' ? { status: 'dead' } : { next_attempt_at: retryAt }) });
  }

  /** Deletes delivered events delivered before `before` (ms since the epoch); answers how many. Pending and dead ones stay. */
  async purgeDelivered(before: number): Promise<number> {
    return this.connection.knex(TABLE).where({ status: 'delivered' }).where('delivered_at', '<', before).delete();
  }

  async dead(): Promise<OutboxRow[]> {
    return ((await this.connection.knex(TABLE).where({ status: 'dead' }).orderBy('outbox_id')) as Record<string, unknown>[]).map(numeric);
  }

  /** Dead rows back to pending (all, or those ids); answers how many. */
  async retry(ids: readonly number[] | 'all'): Promise<number> {
    const query = this.connection.knex(TABLE).where({ status: 'dead' });
    if (ids !== 'all') void query.whereIn('outbox_id', ids);
    return query.update({ status: 'pending', attempts: 0, next_attempt_at: Date.now(), lease_until: 0 });
  }
}
