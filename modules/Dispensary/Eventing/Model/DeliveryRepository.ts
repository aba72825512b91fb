import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  runSearch,
  searchCriteriaOutput,
  type SearchColumn,
  type SearchCriteria,
  type SearchResults,
} from '#framework';
import { DELIVERY_SEARCH_FIELDS, type EventDeliveryData } from '../Api/DeliveryManagementInterface.js';

const TABLE = 'event_outbox';

const SEARCH_COLUMNS: Record<string, SearchColumn> = {
  delivery_id: { column: 'outbox_id' },
  event_id: { column: 'event_uuid' },
  subscription_name: { column: 'subscription_name' },
  event_name: { column: 'event_name' },
  status: { column: 'status' },
  last_error: { column: 'last_error', nullable: true },
};

const COLUMNS = [
  'outbox_id',
  'event_uuid',
  'subscription_name',
  'event_name',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'next_attempt_at',
  'delivered_at',
];

const iso = (ms: unknown): string | null =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();

/**
 * The one place the integrator's views read the delivery tables (event_outbox): the deliveries of a
 * subscription, the dead letters, and putting dead letters back to pending. A change of those
 * tables changes this class only.
 */
@injectable()
export class DeliveryRepository {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async search(
    where: { subscription_name?: string; status?: string },
    searchCriteria: SearchCriteria,
  ): Promise<SearchResults<EventDeliveryData>> {
    const query = this.connection.get()(TABLE).where(where).select(COLUMNS);
    const { rows, total } = await runSearch<Record<string, unknown>>(query, searchCriteria, {
      fields: DELIVERY_SEARCH_FIELDS,
      columns: SEARCH_COLUMNS,
      dialect: this.connection.dialect,
      tieBreaker: 'outbox_id',
    });
    return {
      items: rows.map((row) => ({
        delivery_id: Number(row.outbox_id),
        event_id: String(row.event_uuid),
        subscription_name: String(row.subscription_name),
        event_name: String(row.event_name),
        status: String(row.status),
        // The outbox counts failed attempts; a delivered row's last attempt is the one that succeeded.
        attempts: Number(row.attempts) + (row.status === 'delivered' ? 1 : 0),
        last_error: (row.last_error as string | null) ?? null,
        created_at: iso(row.created_at)!,
        next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
        delivered_at: iso(row.delivered_at),
      })),
      search_criteria: searchCriteriaOutput(searchCriteria),
      total_count: total,
    };
  }

  /** Dead rows back to pending, from attempt one (these ids, a subscription's, or all); answers how many. */
  async retry(which: { ids: readonly number[] } | { subscription_name: string } | 'all'): Promise<number> {
    const query = this.connection.get()(TABLE).where({ status: 'dead' });
    if (which !== 'all') {
      if ('ids' in which) void query.whereIn('outbox_id', which.ids);
      else void query.where({ subscription_name: which.subscription_name });
    }
    return query.update({
      status: 'pending',
      attempts: 0,
      next_attempt_at: Date.now(),
      lease_until: 0,
      lease_token: null,
    });
  }
}
