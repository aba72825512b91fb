import {
  ConnectionProvider,
  FrameworkServices,
  hasRowLocks,
  inject,
  injectable,
  NoSuchEntityException,
  PreparedInsert,
  PreparedQuery,
  preparedQuery,
  requestContext,
  type Knex,
} from '#framework';
import type { RecommendationFormat, RecommendationInterface } from '../../Api/Data/RecommendationInterface.js';
import {
  FULFILLMENT_TYPES,
  type FulfillmentType,
  type RecommendationItemInterface,
} from '../../Api/Data/RecommendationItemInterface.js';

export const RECOMMENDATION_TABLE = 'dispensary_recommendation';
export const ITEM_TABLE = 'dispensary_recommendation_item';
const PRODUCT_TABLE = 'catalog_product';

/**
 * Rows per INSERT statement. Knex writes a multi-row insert on SQLite as SELECT ... UNION ALL
 * SELECT ..., and SQLite refuses more than 500 terms in a compound SELECT: Add Items or a
 * creation with 501 to 1000 items answered 500 (found by the benchmark's scaling run). Chunks of
 * one size also reuse one prepared statement.
 */
const INSERT_CHUNK = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface RecommendationRow {
  recommendation_id: string;
  patient_id: number;
  store_id: number;
  format: string;
  status: string;
  note: string | null;
  notify_email: boolean | number;
  notify_sms: boolean | number;
  created_at: string;
  updated_at: string;
}

/** A stored item, as inserted and updated. */
export interface ItemRow {
  item_id: string;
  recommendation_id: string;
  sku: string;
  sku_key: string;
  qty: number;
  autoship_interval: string;
  note: string | null;
  fulfillment_type: string;
  doctor_id: number | null;
  location_id: number | null;
}

export interface KeyedItem {
  readonly key: string;
  readonly item: RecommendationItemInterface;
}

interface ItemReadRow extends ItemRow {
  product_sku: string | null;
  is_in_stock: boolean | number | string | null;
}

/** The columns of an item row, as inserted. */
const ITEM_ROW_COLUMNS = [
  'item_id',
  'recommendation_id',
  'sku',
  'sku_key',
  'qty',
  'autoship_interval',
  'note',
  'fulfillment_type',
  'doctor_id',
  'location_id',
] as const;

/** An item row with its catalog spelling and stock status, as read (items `i` joined to products `p`). */
export const ITEM_COLUMNS = [
  ...ITEM_ROW_COLUMNS.map((column) => `i.${column}`),
  'p.sku as product_sku',
  'p.is_in_stock',
];

/**
 * The statements of Add Items, Update Items and GET, compiled once (PreparedQuery): a
 * recommendation in or across stores, with or without its row lock, its items, their writes.
 * Columns are named, not `*`: a statement PostgreSQL keeps prepared must not change shape when
 * a migration adds a column.
 */
const RECOMMENDATION_ROW_COLUMNS = [
  'recommendation_id',
  'patient_id',
  'store_id',
  'format',
  'status',
  'note',
  'notify_email',
  'notify_sms',
  'created_at',
  'updated_at',
];
const LOAD = {
  inStore: preparedQuery<{ id: string; storeId: number }, RecommendationRow | undefined>((db, p) =>
    db(RECOMMENDATION_TABLE)
      .where('recommendation_id', p('id'))
      .andWhere('store_id', p('storeId'))
      .first(RECOMMENDATION_ROW_COLUMNS),
  ),
  anyStore: preparedQuery<{ id: string }, RecommendationRow | undefined>((db, p) =>
    db(RECOMMENDATION_TABLE).where('recommendation_id', p('id')).first(RECOMMENDATION_ROW_COLUMNS),
  ),
  inStoreForUpdate: preparedQuery<{ id: string; storeId: number }, RecommendationRow | undefined>((db, p) =>
    db(RECOMMENDATION_TABLE)
      .where('recommendation_id', p('id'))
      .andWhere('store_id', p('storeId'))
      .forUpdate()
      .first(RECOMMENDATION_ROW_COLUMNS),
  ),
  anyStoreForUpdate: preparedQuery<{ id: string }, RecommendationRow | undefined>((db, p) =>
    db(RECOMMENDATION_TABLE).where('recommendation_id', p('id')).forUpdate().first(RECOMMENDATION_ROW_COLUMNS),
  ),
};
const READ_ITEMS = preparedQuery<{ id: string }, ItemReadRow[]>((db, p) =>
  db(`${ITEM_TABLE} as i`)
    .leftJoin(`${PRODUCT_TABLE} as p`, 'p.sku_key', 'i.sku_key')
    .where('i.recommendation_id', p('id'))
    .orderBy('i.entity_id')
    .select(ITEM_COLUMNS),
);
const TOUCH = preparedQuery<{ id: string; updatedAt: string }, number>((db, p) =>
  db(RECOMMENDATION_TABLE)
    .where('recommendation_id', p('id'))
    .update({ updated_at: p('updatedAt') }),
);
const INSERT_ITEMS = new PreparedInsert<ItemRow>(ITEM_TABLE, ITEM_ROW_COLUMNS);
const INSERT_ITEMS_IGNORING_EXISTING = new PreparedInsert<ItemRow>(ITEM_TABLE, ITEM_ROW_COLUMNS, (insert) =>
  insert.onConflict(['recommendation_id', 'sku_key']).ignore(),
);
/** Update Items changes a few fields of an item: one statement per set of fields changed. */
const UPDATE_ITEM = new Map<string, PreparedQuery<{ itemId: string; changes: Partial<ItemRow> }, number>>();
function updateItemQuery(
  fields: readonly (keyof ItemRow)[],
): PreparedQuery<{ itemId: string; changes: Partial<ItemRow> }, number> {
  const key = fields.join(',');
  let query = UPDATE_ITEM.get(key);
  if (!query) {
    query = new PreparedQuery<{ itemId: string; changes: Partial<ItemRow> }, number>((db, value) =>
      db(ITEM_TABLE)
        .where(
          'item_id',
          value((input) => input.itemId),
        )
        .update(Object.fromEntries(fields.map((field) => [field, value((input) => input.changes[field])]))),
    );
    UPDATE_ITEM.set(key, query);
  }
  return query;
}

/** An item row plus its catalog stock status, as the web API returns it. */
export function toItem(row: ItemRow, productSku: string | null, inStock: boolean): RecommendationItemInterface {
  return {
    item_id: row.item_id,
    sku: productSku ?? row.sku,
    qty: Number(row.qty),
    autoship_interval: row.autoship_interval,
    note: row.note,
    fulfillment_type: (FULFILLMENT_TYPES as readonly string[]).includes(row.fulfillment_type)
      ? (row.fulfillment_type as FulfillmentType)
      : 'automatic',
    doctor_id: row.doctor_id === null ? null : Number(row.doctor_id),
    location_id: row.location_id === null ? null : Number(row.location_id),
    availability: inStock ? 'in stock' : 'out of stock',
  };
}

export function toRecommendation(
  row: RecommendationRow,
  items: RecommendationItemInterface[],
): RecommendationInterface {
  return {
    recommendation_id: row.recommendation_id,
    patient_id: Number(row.patient_id),
    store_id: Number(row.store_id),
    format: row.format as RecommendationFormat,
    status: 'pending',
    note: row.note,
    notify_email: Boolean(row.notify_email),
    notify_sms: Boolean(row.notify_sms),
    created_at: row.created_at,
    updated_at: row.updated_at,
    items,
  };
}

function truthy(value: boolean | number | string | null): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/**
 * The SQL of recommendations and their items, shared by the services. Everything goes through
 * `connection.get()`, so inside a request it is the unit of work's transaction.
 */
@injectable()
export class RecommendationResource {
  private readonly lockRows: boolean;

  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {
    // SQLite has no row locks (and knex warns on FOR UPDATE): its single writer serialises anyway.
    this.lockRows = hasRowLocks(connection.dialect);
  }

  db(): Knex {
    return this.connection.get();
  }

  /**
   * The recommendation, if the current scope may see it; 404 otherwise (a store's data is
   * invisible under another store's scope, even for an all-stores token). With `forUpdate`, the
   * row stays locked until the request's transaction ends: item writes on one recommendation
   * run one after the other.
   */
  async load(recommendationId: string, forUpdate = false): Promise<RecommendationRow> {
    const id = recommendationId.trim().toLowerCase();
    if (!UUID.test(id)) throw notFound(recommendationId);
    const lock = forUpdate && this.lockRows;
    const row = requestContext.isAllStores()
      ? await this.connection.run(lock ? LOAD.anyStoreForUpdate : LOAD.anyStore, { id })
      : await this.connection.run(lock ? LOAD.inStoreForUpdate : LOAD.inStore, {
          id,
          storeId: requestContext.store().id,
        });
    if (!row) throw notFound(recommendationId);
    return row;
  }

  /** Items in the order first added, each with the catalog's spelling of its sku and its stock status: one query. */
  async readItems(recommendationId: string): Promise<RecommendationItemInterface[]> {
    return (await this.readKeyedItems(recommendationId)).map(({ item }) => item);
  }

  /** readItems(), with each item's sku key. */
  async readKeyedItems(recommendationId: string): Promise<KeyedItem[]> {
    const rows = await this.connection.run(READ_ITEMS, { id: recommendationId });
    return rows.map((row) => ({ key: row.sku_key, item: toItem(row, row.product_sku, truthy(row.is_in_stock)) }));
  }

  /** The items of several recommendations (a search page), by recommendation id, each in the order first added: one query. */
  async readItemsOf(recommendationIds: readonly string[]): Promise<Map<string, RecommendationItemInterface[]>> {
    const byRecommendation = new Map<string, RecommendationItemInterface[]>(recommendationIds.map((id) => [id, []]));
    if (recommendationIds.length === 0) return byRecommendation;
    const rows = (await this.db()(`${ITEM_TABLE} as i`)
      .leftJoin(`${PRODUCT_TABLE} as p`, 'p.sku_key', 'i.sku_key')
      .whereIn('i.recommendation_id', [...recommendationIds])
      .orderBy('i.entity_id')
      .select(ITEM_COLUMNS)) as ItemReadRow[];
    for (const row of rows)
      byRecommendation.get(row.recommendation_id)?.push(toItem(row, row.product_sku, truthy(row.is_in_stock)));
    return byRecommendation;
  }

  /** Multi-row inserts (INSERT_CHUNK rows each); a row whose sku key the recommendation already holds is skipped by the unique index. */
  async insertItemsIgnoringExisting(rows: readonly ItemRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      await this.connection.run(INSERT_ITEMS_IGNORING_EXISTING.forRows(chunk.length), chunk);
    }
  }

  async insertItems(rows: readonly ItemRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      await this.connection.run(INSERT_ITEMS.forRows(chunk.length), chunk);
    }
  }

  async insertRecommendation(row: RecommendationRow): Promise<void> {
    await this.db()(RECOMMENDATION_TABLE).insert(row);
  }

  async updateItem(itemId: string, changes: Partial<ItemRow>): Promise<void> {
    const fields = (Object.keys(changes) as (keyof ItemRow)[]).filter((field) => changes[field] !== undefined);
    if (fields.length) await this.connection.run(updateItemQuery(fields), { itemId, changes });
  }

  /** Deletes those of `itemIds` that are items of the recommendation; answers how many were. */
  async deleteItems(recommendationId: string, itemIds: readonly string[]): Promise<number> {
    const ids = [...new Set(itemIds.map((id) => id.trim().toLowerCase()))].filter((id) => UUID.test(id));
    if (ids.length === 0) return 0;
    return this.db()(ITEM_TABLE).where('recommendation_id', recommendationId).whereIn('item_id', ids).del();
  }

  async touch(recommendationId: string, updatedAt: string): Promise<void> {
    await this.connection.run(TOUCH, { id: recommendationId, updatedAt });
  }
}

function notFound(recommendationId: string): NoSuchEntityException {
  return NoSuchEntityException.singleField(
    'recommendation_id',
    recommendationId.length > 64 ? `${recommendationId.slice(0, 64)}...` : recommendationId,
  );
}
