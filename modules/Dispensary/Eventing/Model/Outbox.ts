import { randomUUID } from 'node:crypto';
import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  preparedQuery,
  PreparedQuery,
  type Knex,
} from '#framework';
import { selectFields } from '../../OutOfProcessExtensibility/Api/payloadFilters.js';
import { envelope } from './Envelope.js';
import type { Subscription } from './Subscription.js';

const TABLE = 'event_outbox';

/**
 * This process's part of every lease token (`p:<tag>:<uuid>`, `d:<tag>:<uuid>`): a relay counts
 * the deliveries under way per subscription in its own process (`perSubscription`).
 */
export const PROCESS_TAG = randomUUID().slice(0, 8);

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
  /** Who holds the lease: `p:<uuid>` a relay that published the row, `d:<uuid>` a consumer delivering it. */
  readonly lease_token: string | null;
  /** 1: the subscription has `priority`; published to event.delivery.priority. */
  readonly priority: number;
  /** The payload's envelope: `standardwebhooks`, `cloudevents`, or `legacy` (recorded before formats existed). */
  readonly format: string;
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

// Performance (issue 29): the relay polls (every pollMs, 250 ms, when it found nothing) and the consumer takes,
// settles and follows rows per event; those statements have one shape each, so they are built
// and compiled by knex once (PreparedQuery) and only run: no query building per poll or event.
// They run on the pool (`runOutside`), as the query builder on `connection.knex` did.

type Raw = Record<string, unknown>;

type CandidatesInput = {
  readonly now: number;
  readonly chain: { subscription: string; entity: string } | undefined;
  readonly full: readonly string[];
};

/**
 * Rows leased now (pending, lease running), per subscription: how many a relay published
 * (`p:`, any process: what maxInFlight bounds) and how many this process holds (`p:` or `d:`
 * with PROCESS_TAG: each subscription's share), in one statement.
 */
const LEASES = preparedQuery<{ now: number }, { subscription_name: string; published: unknown; mine: unknown }[]>(
  (db, p) =>
    db(TABLE)
      .select(
        'subscription_name',
        db.raw('sum(case when lease_token like ? then 1 else 0 end) as published', ['p:%']),
        db.raw('sum(case when lease_token like ? then 1 else 0 end) as mine', [`_:${PROCESS_TAG}:%`]),
      )
      .where('status', 'pending')
      .where('lease_until', '>=', p('now'))
      .groupBy('subscription_name'),
);

const BY_ID = preparedQuery<{ id: number }, Raw | undefined>((db, p) =>
  db(TABLE)
    .where({ outbox_id: p('id') })
    .first(),
);

const EARLIER = preparedQuery<{ subscription: string; entity: string; id: number }, Raw | undefined>((db, p) =>
  db(`${TABLE} as o`)
    .where('o.subscription_name', p('subscription'))
    .where('o.entity_key', p('entity'))
    .where('o.outbox_id', '<', p('id'))
    .where('o.status', 'pending')
    .first('o.outbox_id'),
);

const CHAIN_HEAD = preparedQuery<{ subscription: string; entity: string }, Raw | undefined>((db, p) =>
  db(TABLE)
    .where({ subscription_name: p('subscription'), entity_key: p('entity'), status: 'pending' })
    .orderBy('outbox_id')
    .first(),
);

/** Leases a row that is pending and whose lease ran out. */
const LEASE_FREE = preparedQuery<{ id: number; now: number; until: number; token: string }, number>((db, p) =>
  db(TABLE)
    .where({ outbox_id: p('id'), status: 'pending' })
    .where('lease_until', '<', p('now'))
    .update({ lease_until: p('until'), lease_token: p('token') }),
);

/** Leases a row that is still as it was read (its lease and token unchanged): with a token, and without one. */
const LEASE_SEEN = {
  token: preparedQuery<{ id: number; leaseUntil: number; seen: string; until: number; token: string }, number>(
    (db, p) =>
      db(TABLE)
        .where({ outbox_id: p('id'), status: 'pending' })
        .where('lease_until', p('leaseUntil'))
        .where('lease_token', p('seen'))
        .update({ lease_until: p('until'), lease_token: p('token') }),
  ),
  none: preparedQuery<{ id: number; leaseUntil: number; until: number; token: string }, number>((db, p) =>
    db(TABLE)
      .where({ outbox_id: p('id'), status: 'pending' })
      .where('lease_until', p('leaseUntil'))
      .whereNull('lease_token')
      .update({ lease_until: p('until'), lease_token: p('token') }),
  ),
};

const DELIVERED = preparedQuery<{ id: number; now: number }, number>((db, p) =>
  db(TABLE)
    .where({ outbox_id: p('id'), status: 'pending' })
    .update({ status: 'delivered', delivered_at: p('now'), lease_until: 0, lease_token: null, last_error: null }),
);

/** Why a message's row was not taken for delivery: the message is dropped. */
export type NotTaken = 'settled' | 'not_due' | 'not_head' | 'delivering';

const numeric = (row: Record<string, unknown>): OutboxRow =>
  ({
    ...row,
    outbox_id: Number(row.outbox_id),
    attempts: Number(row.attempts),
    created_at: Number(row.created_at),
    priority: Number(row.priority ?? 0),
    lease_token: row.lease_token ?? null,
    format: row.format ?? 'legacy',
  }) as unknown as OutboxRow;

/**
 * The transactional outbox (migrations 20261125110010, 20261125120000): written in the request's
 * transaction; the relay leases due rows and publishes them to the queue, the delivery consumer
 * takes the row a message names and records the outcome here. The rows are the truth, the
 * messages only wake a consumer: a lost or duplicated message costs a re-publish, never an event.
 */
@injectable()
export class Outbox {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  /** Records the event for the subscription, in its format, in the current transaction when there is one. */
  async record(
    subscription: Pick<Subscription, 'name' | 'fields' | 'priority' | 'format'>,
    eventName: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    const uuid = randomUUID();
    const now = Date.now();
    const entity = entityKey(data, `event:${uuid}`);
    const selected = selectFields(
      subscription.fields.map((field) => ({ name: field.name })),
      data,
    );
    const payload = envelope(subscription.format, {
      id: uuid,
      name: subscription.name,
      time: now,
      ...(entity.startsWith('event:') ? {} : { subject: entity }),
      data: selected,
    });
    await this.connection
      .get()(TABLE)
      .insert({
        event_uuid: uuid,
        subscription_name: subscription.name,
        event_name: eventName,
        entity_key: entity,
        payload: JSON.stringify(payload),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_until: 0,
        created_at: now,
        priority: subscription.priority ? 1 : 0,
        format: subscription.format,
      });
  }

  /**
   * Rows leased now: how many a relay published and a consumer has not taken yet (any process),
   * and the deliveries under way in this process (published by its relay, or being delivered by
   * it) per subscription that has any.
   */
  private async leases(now: number): Promise<{ published: number; busy: Map<string, number> }> {
    let published = 0;
    const busy = new Map<string, number>();
    for (const row of await this.connection.runOutside(LEASES, { now })) {
      published += Number(row.published ?? 0);
      const mine = Number(row.mine ?? 0);
      if (mine > 0) busy.set(row.subscription_name, mine);
    }
    return { published, busy };
  }

  /**
   * The relay's candidates (see leaseForPublish): compiled once per limit a caller passes (100 for
   * a poll, 1 for a chain), with or without a chain, and per number of subscriptions left out
   * (those that have their share): a handful of queries, growing with the subscriptions at most.
   */
  private readonly candidateQueries = new Map<string, PreparedQuery<CandidatesInput, Raw[]>>();

  private candidates(limit: number, chain: boolean, excluded: number): PreparedQuery<CandidatesInput, Raw[]> {
    const key = `${chain ? 'chain' : 'all'}:${limit}:${excluded}`;
    let query = this.candidateQueries.get(key);
    if (!query) {
      query = new PreparedQuery<CandidatesInput, Raw[]>((db, value) => {
        const now = () => value((input) => input.now);
        const base = db(`${TABLE} as o`)
          .select('o.*')
          .where('o.status', 'pending')
          .where('o.next_attempt_at', '<=', now())
          .where('o.lease_until', '<', now());
        if (chain)
          void base.where({
            'o.subscription_name': value((input) => input.chain?.subscription),
            'o.entity_key': value((input) => input.chain?.entity),
          });
        if (excluded > 0) {
          const names = Array.from({ length: excluded }, (_, i) => value((input) => input.full[i]));
          void base.whereNotIn('o.subscription_name', names);
        }
        return this.heads(base, db).orderBy('o.priority', 'desc').orderBy('o.outbox_id').limit(limit);
      });
      this.candidateQueries.set(key, query);
    }
    return query;
  }

  /** Rows that have no earlier pending row of the same subscription and entity (the heads of their chains). */
  private heads(query: Knex.QueryBuilder, db: Knex): Knex.QueryBuilder {
    return query.whereNotExists(function () {
      void this.select(db.raw('1'))
        .from(`${TABLE} as p`)
        .whereRaw('p.subscription_name = o.subscription_name')
        .whereRaw('p.entity_key = o.entity_key')
        .whereRaw('p.outbox_id < o.outbox_id')
        .where('p.status', 'pending');
    });
  }

  /**
   * For the relay: leases up to `limit` rows that are pending, due, not leased, and heads of their
   * entity's chain, priority ones first, under one token (`p:<uuid>`) for `leaseMs`, and answers
   * them. `chain` limits it to one subscription and entity (the successor of a settled row).
   * Several relays may race: the conditional update gives each row to one of them.
   * `perSubscription` bounds one subscription's deliveries under way that this process leased
   * (published, or being delivered here): a slow or dead destination holds that many of this
   * consumer's slots at most, and the rows of the others go out meanwhile (per-destination
   * isolation, issue 26); each consumer process adds its own share. `maxInFlight` bounds the rows
   * published and not yet taken by a consumer (all processes): `limit` shrinks to the room left.
   */
  async leaseForPublish(
    limit: number,
    leaseMs: number,
    chain?: { subscription: string; entity: string },
    perSubscription = Number.POSITIVE_INFINITY,
    maxInFlight = Number.POSITIVE_INFINITY,
  ): Promise<{ token: string; rows: OutboxRow[] }> {
    const db = this.connection.knex;
    const now = Date.now();
    const token = `p:${PROCESS_TAG}:${randomUUID()}`;
    if (limit <= 0) return { token, rows: [] };
    const counted = Number.isFinite(perSubscription) || Number.isFinite(maxInFlight);
    const { published, busy } = counted ? await this.leases(now) : { published: 0, busy: new Map<string, number>() };
    const room = Number.isFinite(maxInFlight) ? Math.min(limit, maxInFlight - published) : limit;
    if (room <= 0) return { token, rows: [] };
    const full = [...busy].filter(([, n]) => n >= perSubscription).map(([name]) => name);
    // Compiled for the caller's limit, not the room left (which changes from poll to poll, and
    // each value would be a query of its own): the first `room` of the same order are those a
    // query limited to `room` would answer.
    const query = this.candidates(limit, chain !== undefined, full.length);
    const candidates = (await this.connection.runOutside(query, { now, chain, full })).slice(0, room);
    const shares = new Map(busy);
    const found = candidates.map(numeric).filter((row) => {
      const n = shares.get(row.subscription_name) ?? 0;
      shares.set(row.subscription_name, n + 1);
      return n < perSubscription;
    });
    if (found.length === 0) return { token, rows: [] };
    const ids = found.map((row) => row.outbox_id);
    const taken = await db(TABLE)
      .whereIn('outbox_id', ids)
      .where('status', 'pending')
      .where('lease_until', '<', now)
      .update({ lease_until: now + leaseMs, lease_token: token });
    if (taken === 0) return { token, rows: [] };
    // Another relay took some meanwhile: read which are ours.
    const ours = async (): Promise<Set<number>> => {
      const leased = (await db(TABLE).whereIn('outbox_id', ids).where('lease_token', token).select('outbox_id')) as {
        outbox_id: unknown;
      }[];
      return new Set(leased.map((row) => Number(row.outbox_id)));
    };
    const mine = taken === found.length ? new Set(ids) : await ours();
    const rows = found.filter((row) => mine.has(row.outbox_id)).map((row) => ({ ...row, lease_token: token }));
    return { token, rows: rows.sort((a, b) => b.priority - a.priority || a.outbox_id - b.outbox_id) };
  }

  /**
   * For the consumer that just settled a row of `chain`: takes the chain's new head for delivery
   * (`d:<uuid>`, `leaseMs`) when it is due and nobody holds it (no relay published it meanwhile),
   * so that one entity's events do not each wait for a trip through the queue; else undefined.
   */
  async takeHeadForDelivery(
    chain: Pick<OutboxRow, 'subscription_name' | 'entity_key'>,
    leaseMs: number,
  ): Promise<OutboxRow | undefined> {
    const now = Date.now();
    const head = await this.connection.runOutside(CHAIN_HEAD, {
      subscription: chain.subscription_name,
      entity: chain.entity_key,
    });
    if (!head || Number(head.next_attempt_at) > now || Number(head.lease_until) >= now) return undefined;
    const token = `d:${PROCESS_TAG}:${randomUUID()}`;
    const taken = await this.connection.runOutside(LEASE_FREE, {
      id: Number(head.outbox_id),
      now,
      until: now + leaseMs,
      token,
    });
    return taken === 1 ? { ...numeric(head), lease_token: token } : undefined;
  }

  /**
   * `delivered(row)` then `takeHeadForDelivery(row)`, for the consumer following a chain: the row
   * marked delivered and its chain's new head taken (or undefined, as takeHeadForDelivery). On
   * PostgreSQL one statement does both, atomically (a data-modifying WITH; the head is the
   * chain's first pending row other than `row`, as the snapshot still sees `row` pending): two
   * round trips fewer per event of a chain, where a consumer's time goes (BENCHMARKS.md, event
   * delivery across entities). Elsewhere the two calls, one after the other.
   */
  async deliveredThenTakeHead(row: OutboxRow, leaseMs: number): Promise<OutboxRow | undefined> {
    if (this.connection.dialect !== 'postgres') {
      await this.delivered(row.outbox_id);
      return this.takeHeadForDelivery(row, leaseMs);
    }
    const now = Date.now();
    const token = `d:${PROCESS_TAG}:${randomUUID()}`;
    const result = (await this.connection.knex.raw(
      `with done as (
         update ${TABLE} set status = 'delivered', delivered_at = ?, lease_until = 0, lease_token = null, last_error = null
         where outbox_id = ? and status = 'pending'
         returning outbox_id
       ), head as (
         select outbox_id from ${TABLE}
         where subscription_name = ? and entity_key = ? and status = 'pending' and outbox_id <> ?
         order by outbox_id limit 1
       )
       update ${TABLE} as o set lease_until = ?, lease_token = ?
       from head
       where o.outbox_id = head.outbox_id and o.status = 'pending' and o.next_attempt_at <= ? and o.lease_until < ?
       returning o.*`,
      [now, row.outbox_id, row.subscription_name, row.entity_key, row.outbox_id, now + leaseMs, token, now, now],
    )) as { rows: Record<string, unknown>[] };
    const next = result.rows[0];
    return next ? numeric(next) : undefined;
  }

  /** Gives back leases a relay could not publish: the rows are due again at once. */
  async release(ids: readonly number[], token: string): Promise<void> {
    if (ids.length === 0) return;
    await this.connection
      .knex(TABLE)
      .whereIn('outbox_id', ids)
      .where({ lease_token: token, status: 'pending' })
      .update({ lease_until: 0, lease_token: null });
  }

  /**
   * For the consumer, on a message naming row `id` (published under `token`): takes the row for
   * delivery (`d:<uuid>`, `leaseMs`) when it is still pending, due, the head of its chain and not
   * being delivered by another consumer; else answers why not, and the message is dropped
   * (a duplicate; or the relay publishes the row again when it is due and at the head).
   */
  async takeForDelivery(id: number, token: string, leaseMs: number): Promise<OutboxRow | NotTaken> {
    const now = Date.now();
    const found = await this.connection.runOutside(BY_ID, { id });
    if (!found || found.status !== 'pending') return 'settled';
    const row = numeric(found);
    const leaseUntil = Number(found.lease_until);
    if (Number(found.next_attempt_at) > now) return 'not_due';
    const earlier = await this.connection.runOutside(EARLIER, {
      subscription: row.subscription_name,
      entity: row.entity_key,
      id,
    });
    if (earlier) {
      if (row.lease_token === token) await this.release([id], token);
      return 'not_head';
    }
    if (row.lease_token?.startsWith('d:') && leaseUntil >= now) return 'delivering';
    const mine = `d:${PROCESS_TAG}:${randomUUID()}`;
    const lease = { id, leaseUntil, until: now + leaseMs, token: mine };
    const taken =
      row.lease_token === null
        ? await this.connection.runOutside(LEASE_SEEN.none, lease)
        : await this.connection.runOutside(LEASE_SEEN.token, { ...lease, seen: row.lease_token });
    return taken === 1 ? { ...row, lease_token: mine } : 'delivering';
  }

  async delivered(id: number): Promise<void> {
    await this.connection.runOutside(DELIVERED, { id, now: Date.now() });
  }

  /** A failed attempt: tried again at `retryAt`, or dead when `dead`. */
  async failed(id: number, attempts: number, reason: string, retryAt: number | 'dead'): Promise<void> {
    await this.connection
      .knex(TABLE)
      .where({ outbox_id: id, status: 'pending' })
      .update({
        attempts,
        last_error: reason.slice(0, 255),
        lease_until: 0,
        lease_token: null,
        ...(retryAt === 'dead' ? { status: 'dead' } : { next_attempt_at: retryAt }),
      });
  }

  /** Deletes delivered events delivered before `before` (ms since the epoch); answers how many. Pending and dead ones stay. */
  async purgeDelivered(before: number): Promise<number> {
    return this.connection.knex(TABLE).where({ status: 'delivered' }).where('delivered_at', '<', before).delete();
  }
  // Dead letters are listed and sent again through DeliveryRepository (the REST routes and events:dead-letter:*).
}
