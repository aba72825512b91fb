/**
 * Reference R, the limit on this machine: node:http + better-sqlite3 prepared statements (each
 * prepared once), hand-written validation of the same field rules, the same queries in one
 * transaction, the same JSON out. Everything a request does runs synchronously once its body
 * has arrived. SQLite only (DATABASE_URL=sqlite:<file>).
 *
 * Env (read through app/bootstrap/config/DeploymentConfig.ts): DATABASE_URL, PORT, HOST.
 */
import Database, { type Statement } from 'better-sqlite3';
import { nowTimestamp, toItem, toRecommendation, truthy } from './common.js';
import type { ItemInput, ItemOut, ItemReadRow, RecommendationRow, TokenRow } from './common.js';
import { INSERT_COLUMNS, insertChunks, itemUpdates, newItemRows, newItems, type ProductRow } from './rawAddItems.js';
import { found, recommendationKey, requireDatabase, serveRaw } from './referenceServer.js';

const url = requireDatabase(/^sqlite:/, 'the raw reference server runs on SQLite only');
const db = new Database(url.slice('sqlite:'.length));
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');

// The SQL text knex writes for the product's queries, prepared once: spelling it out is what this
// reference is (the product's column lists live in container-built classes it must not load).
const sql = {
  token: db.prepare(
    'select `token_id`, `kind`, `name`, `token_hash`, `store_id`, `resources`, `admin_user_id`, `expires_at`, `revoked_at`, `active_name` ' +
      'from `integration_token` where `token_hash` = ? limit ?',
  ),
  storeByCode: db.prepare('select * from `store` where `code` = ? limit ?'),
  defaultStore: db.prepare('select * from `store` where `is_default` = ? limit ?'),
  load: db.prepare(
    'select `recommendation_id`, `patient_id`, `store_id`, `format`, `status`, `note`, `notify_email`, `notify_sms`, `created_at`, `updated_at` ' +
      'from `dispensary_recommendation` where `recommendation_id` = ? and `store_id` = ? limit ?',
  ),
  items: db.prepare(
    'select `i`.`item_id`, `i`.`recommendation_id`, `i`.`sku`, `i`.`sku_key`, `i`.`qty`, `i`.`autoship_interval`, `i`.`note`, ' +
      '`i`.`fulfillment_type`, `i`.`doctor_id`, `i`.`location_id`, `p`.`sku` as `product_sku`, `p`.`is_in_stock` ' +
      'from `dispensary_recommendation_item` as `i` left join `catalog_product` as `p` on `p`.`sku_key` = `i`.`sku_key` ' +
      'where `i`.`recommendation_id` = ? order by `i`.`entity_id` asc',
  ),
  touch: db.prepare('update `dispensary_recommendation` set `updated_at` = ? where `recommendation_id` = ?'),
};

/** Statements whose text depends on a count or a column set, each prepared once. */
const prepared = new Map<string, Statement>();
function statement(key: string, make: () => string): Statement {
  let found = prepared.get(key);
  if (!found) prepared.set(key, (found = db.prepare(make())));
  return found;
}

const productsIn = (n: number) =>
  statement(
    `products:${n}`,
    () =>
      `select \`entity_id\`, \`sku\`, \`sku_key\`, \`name\`, \`price\`, \`status\`, \`is_in_stock\` from \`catalog_product\` where \`sku_key\` in (${Array(n).fill('?').join(', ')})`,
  );
/**
 * The very SQL knex writes for a multi-row insert on SQLite (columns sorted, one row as VALUES,
 * several as SELECT ... UNION ALL SELECT ... WHERE true): the same statement for SQLite to run.
 */
const insertItems = (n: number) =>
  statement(`insert:${n}`, () => {
    const head = `insert into \`dispensary_recommendation_item\` (${INSERT_COLUMNS.map((c) => `\`${c}\``).join(', ')})`;
    const conflict = ' on conflict (`recommendation_id`, `sku_key`) do nothing';
    if (n === 1) return `${head} values (${INSERT_COLUMNS.map(() => '?').join(', ')})${conflict}`;
    const row = INSERT_COLUMNS.map((c) => `? as \`${c}\``).join(', ');
    return `${head} select ${Array(n).fill(row).join(' union all select ')} where true${conflict}`;
  });
const updateItem = (fields: readonly string[]) =>
  statement(
    `update:${fields.join(',')}`,
    () =>
      `update \`dispensary_recommendation_item\` set ${fields.map((f) => `\`${f}\` = ?`).join(', ')} where \`item_id\` = ?`,
  );

// ---- the operations ----------------------------------------------------------------------------

function load(id: string, storeId: number): RecommendationRow {
  return found(sql.load.get(recommendationKey(id), storeId, 1) as RecommendationRow | undefined, id);
}

function readItems(recommendationId: string): { key: string; item: ItemOut }[] {
  return (sql.items.all(recommendationId) as ItemReadRow[]).map((row) => ({
    key: row.sku_key,
    item: toItem(row, row.product_sku, truthy(row.is_in_stock)),
  }));
}

const addItems = db.transaction((id: string, storeId: number, input: ItemInput[]) => {
  const rec = load(id, storeId);
  const stored = readItems(rec.recommendation_id);
  const existing = new Set(stored.map((s) => s.key));
  const items = stored.map((s) => s.item);
  const first = newItems(input, existing);
  if (first.size === 0) return toRecommendation(rec, items);
  const keys = [...first.keys()];
  const products = new Map((productsIn(keys.length).all(...keys) as ProductRow[]).map((p) => [p.sku_key, p]));
  const rows = newItemRows(first, products, rec.recommendation_id);
  for (const { count, values } of insertChunks(rows, INSERT_COLUMNS)) insertItems(count).run(...values);
  for (const row of rows) {
    const product = products.get(row.sku_key)!;
    items.push(toItem(row, product.sku, product.is_in_stock === 1));
  }
  rec.updated_at = nowTimestamp();
  sql.touch.run(rec.updated_at, rec.recommendation_id);
  return toRecommendation(rec, items);
});

const updateItems = db.transaction((id: string, storeId: number, input: ItemInput[]) => {
  const rec = load(id, storeId);
  const { items, updates } = itemUpdates(readItems(rec.recommendation_id), input);
  for (const { itemId, fields, values } of updates) updateItem(fields).run(...values, itemId);
  if (updates.length) {
    rec.updated_at = nowTimestamp();
    sql.touch.run(rec.updated_at, rec.recommendation_id);
  }
  return toRecommendation(rec, items);
});

type StoreRow = { store_id: number; is_active: number };

serveRaw(
  {
    storeRow: (code) =>
      (code === null ? sql.defaultStore.get(1, 1) : sql.storeByCode.get(code, 1)) as StoreRow | undefined,
    tokenRow: (hash) => sql.token.get(hash, 1) as TokenRow | undefined,
    get: (id, storeId) => {
      const rec = load(id, storeId);
      return toRecommendation(
        rec,
        readItems(rec.recommendation_id).map((s) => s.item),
      );
    },
    addItems,
    updateItems,
    close: () => void db.close(),
  },
  3002,
);
