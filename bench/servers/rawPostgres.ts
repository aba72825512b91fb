/**
 * Reference R on PostgreSQL: node:http + node-postgres (`pg`) with NAMED prepared statements (each
 * parsed once per connection by the server), the same statements as bench/servers/raw.ts in
 * PostgreSQL's spelling (the SQL knex writes for the product's queries), one transaction per
 * Add Items / Update Items (BEGIN ... COMMIT on one pooled connection), GET without one, the same
 * hand-written validation (rawValidation.ts), the same JSON out. No framework, no container, no
 * plugins, no schema validation library, no logging, no metrics, no request context.
 * PostgreSQL only (DATABASE_URL=postgres://...; `?schema=` sets the search path).
 *
 * Env (read through app/bootstrap/config/DeploymentConfig.ts): DATABASE_URL, PORT, HOST.
 */
import pg from 'pg';
import { parseDatabaseUrl } from '../../app/framework/db/databaseUrl.js';
import { nowTimestamp, toItem, toRecommendation, truthy } from './common.js';
import type { ItemInput, ItemOut, ItemReadRow, RecommendationRow, TokenRow } from './common.js';
import { INSERT_COLUMNS, insertChunks, itemUpdates, newItemRows, newItems, type ProductRow } from './rawAddItems.js';
import { found, recommendationKey, requireDatabase, serveRaw } from './referenceServer.js';

const url = requireDatabase(/^postgres(ql)?:\/\//, 'the raw PostgreSQL reference server runs on PostgreSQL only');
// The same connection settings and type parsers (timestamps as text) as the service's.
const settings = parseDatabaseUrl(url).config as { connection: { connectionString: string }; searchPath?: string[] };
const pool = new pg.Pool({
  connectionString: settings.connection.connectionString,
  max: 10,
  options: settings.searchPath ? `-c search_path=${settings.searchPath.join(',')}` : undefined,
});

type Db = pg.Pool | pg.PoolClient;
interface Named {
  readonly name: string;
  readonly text: string;
}

/** Runs a named statement: parsed once per connection, then only bound and executed. */
async function run<R extends pg.QueryResultRow>(db: Db, statement: Named, values: unknown[]): Promise<R[]> {
  return (await db.query<R>({ name: statement.name, text: statement.text, values })).rows;
}

const sql = {
  token: {
    name: 'token',
    text:
      'select "token_id", "kind", "name", "token_hash", "store_id", "resources", "admin_user_id", "expires_at", "revoked_at", "active_name" ' +
      'from "integration_token" where "token_hash" = $1 limit $2',
  },
  storeByCode: { name: 'store_by_code', text: 'select * from "store" where "code" = $1 limit $2' },
  defaultStore: { name: 'default_store', text: 'select * from "store" where "is_default" = $1 limit $2' },
  load: {
    name: 'load',
    text:
      'select "recommendation_id", "patient_id", "store_id", "format", "status", "note", "notify_email", "notify_sms", "created_at", "updated_at" ' +
      'from "dispensary_recommendation" where "recommendation_id" = $1 and "store_id" = $2 limit $3',
  },
  items: {
    name: 'items',
    text:
      'select "i"."item_id", "i"."recommendation_id", "i"."sku", "i"."sku_key", "i"."qty", "i"."autoship_interval", "i"."note", ' +
      '"i"."fulfillment_type", "i"."doctor_id", "i"."location_id", "p"."sku" as "product_sku", "p"."is_in_stock" ' +
      'from "dispensary_recommendation_item" as "i" left join "catalog_product" as "p" on "p"."sku_key" = "i"."sku_key" ' +
      'where "i"."recommendation_id" = $1 order by "i"."entity_id" asc',
  },
  touch: {
    name: 'touch',
    text: 'update "dispensary_recommendation" set "updated_at" = $1 where "recommendation_id" = $2',
  },
} satisfies Record<string, Named>;

/** Statements whose text depends on a count or a column set: one name per shape. */
const shapes = new Map<string, Named>();
function shape(key: string, make: () => string): Named {
  let found = shapes.get(key);
  if (!found) shapes.set(key, (found = { name: key, text: make() }));
  return found;
}
const params = (from: number, n: number) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
const productsIn = (n: number) =>
  shape(
    `products_${n}`,
    () =>
      `select "entity_id", "sku", "sku_key", "name", "price", "status", "is_in_stock" from "catalog_product" where "sku_key" in (${params(1, n)})`,
  );
/** knex's multi-row insert on PostgreSQL: VALUES (...), (...), then the conflict clause. */
const insertItems = (n: number) =>
  shape(`insert_${n}`, () => {
    const width = INSERT_COLUMNS.length;
    const rows = Array.from({ length: n }, (_, r) => `(${params(r * width + 1, width)})`).join(', ');
    return `insert into "dispensary_recommendation_item" (${INSERT_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${rows} on conflict ("recommendation_id", "sku_key") do nothing`;
  });
const updateItem = (fields: readonly string[]) =>
  shape(
    `update_${fields.join('_')}`,
    () =>
      `update "dispensary_recommendation_item" set ${fields.map((f, i) => `"${f}" = $${i + 1}`).join(', ')} where "item_id" = $${fields.length + 1}`,
  );

// ---- the operations ----------------------------------------------------------------------------

async function load(db: Db, id: string, storeId: number): Promise<RecommendationRow> {
  return found((await run<RecommendationRow>(db, sql.load, [recommendationKey(id), storeId, 1]))[0], id);
}

async function readItems(db: Db, recommendationId: string): Promise<{ key: string; item: ItemOut }[]> {
  return (await run<ItemReadRow>(db, sql.items, [recommendationId])).map((row) => ({
    key: row.sku_key,
    item: toItem(row, row.product_sku, truthy(row.is_in_stock)),
  }));
}

/** One transaction on one pooled connection: BEGIN, the work, COMMIT (ROLLBACK when it throws). */
async function transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    client.release();
  }
}

const addItems = (id: string, storeId: number, input: ItemInput[]) =>
  transaction(async (db) => {
    const rec = await load(db, id, storeId);
    const stored = await readItems(db, rec.recommendation_id);
    const existing = new Set(stored.map((s) => s.key));
    const items = stored.map((s) => s.item);
    const first = newItems(input, existing);
    if (first.size === 0) return toRecommendation(rec, items);
    const keys = [...first.keys()];
    const products = new Map((await run<ProductRow>(db, productsIn(keys.length), keys)).map((p) => [p.sku_key, p]));
    const rows = newItemRows(first, products, rec.recommendation_id);
    for (const { count, values } of insertChunks(rows, INSERT_COLUMNS)) await run(db, insertItems(count), values);
    for (const row of rows) {
      const product = products.get(row.sku_key)!;
      items.push(toItem(row, product.sku, truthy(product.is_in_stock)));
    }
    rec.updated_at = nowTimestamp();
    await run(db, sql.touch, [rec.updated_at, rec.recommendation_id]);
    return toRecommendation(rec, items);
  });

const updateItems = (id: string, storeId: number, input: ItemInput[]) =>
  transaction(async (db) => {
    const rec = await load(db, id, storeId);
    const { items, updates } = itemUpdates(await readItems(db, rec.recommendation_id), input);
    for (const { itemId, fields, values } of updates) await run(db, updateItem(fields), [...values, itemId]);
    if (updates.length) {
      rec.updated_at = nowTimestamp();
      await run(db, sql.touch, [rec.updated_at, rec.recommendation_id]);
    }
    return toRecommendation(rec, items);
  });

type StoreRow = { store_id: number; is_active: boolean | number };

serveRaw(
  {
    storeRow: async (code) => {
      const rows = await (code === null
        ? run<StoreRow>(pool, sql.defaultStore, [true, 1])
        : run<StoreRow>(pool, sql.storeByCode, [code, 1]));
      return rows[0];
    },
    tokenRow: async (hash) => (await run<TokenRow>(pool, sql.token, [hash, 1]))[0],
    get: async (id, storeId) => {
      const rec = await load(pool, id, storeId);
      return toRecommendation(
        rec,
        (await readItems(pool, rec.recommendation_id)).map((s) => s.item),
      );
    },
    addItems,
    updateItems,
    close: () => pool.end(),
  },
  3002,
);
