/**
 * Reference R, the limit on this machine: node:http + better-sqlite3 prepared statements (each
 * prepared once), hand-written validation of the same field rules, the same queries in one
 * transaction, the same JSON out. Everything a request does runs synchronously once its body
 * has arrived. SQLite only (DATABASE_URL=sqlite:<file>).
 *
 * Env (read through app/bootstrap/DeploymentConfig.ts): DATABASE_URL, PORT, HOST.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import Database, { type Statement } from 'better-sqlite3';
import { databaseUrl, readListenAddress } from '../../app/bootstrap/DeploymentConfig.js';
import {
  BEARER,
  checkToken,
  hashToken,
  HttpError,
  inputError,
  MSG,
  notFound,
  nowTimestamp,
  skuKey,
  toItem,
  toRecommendation,
  TOKEN_PATTERN,
  truthy,
  unauthorized,
  UPDATABLE,
  UUID,
  type ItemInput,
  type ItemOut,
  type ItemReadRow,
  type RecommendationRow,
  type TokenRow,
} from './common.js';
import { insertChunks, newItemRows, newItems, type ProductRow } from './rawAddItems.js';
import { validate } from './rawValidation.js';

const url = databaseUrl();
if (!url.startsWith('sqlite:')) {
  process.stderr.write('the raw reference server runs on SQLite only\n');
  process.exit(2);
}
const db = new Database(url.slice('sqlite:'.length));
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');

const BODY_LIMIT = 1024 * 1024;

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
const ITEM_COLUMNS = ['item_id', 'recommendation_id', 'sku', 'sku_key', 'qty', 'autoship_interval', 'note', 'fulfillment_type', 'doctor_id', 'location_id'] as const;

/** Statements whose text depends on a count or a column set, each prepared once. */
const prepared = new Map<string, Statement>();
function statement(key: string, make: () => string): Statement {
  let found = prepared.get(key);
  if (!found) prepared.set(key, (found = db.prepare(make())));
  return found;
}

const productsIn = (n: number) =>
  statement(`products:${n}`, () => `select \`entity_id\`, \`sku\`, \`sku_key\`, \`name\`, \`price\`, \`status\`, \`is_in_stock\` from \`catalog_product\` where \`sku_key\` in (${Array(n).fill('?').join(', ')})`);
/**
 * The very SQL knex writes for a multi-row insert on SQLite (columns sorted, one row as VALUES,
 * several as SELECT ... UNION ALL SELECT ... WHERE true): the same statement for SQLite to run.
 */
const INSERT_COLUMNS = [...ITEM_COLUMNS].sort();
const insertItems = (n: number) =>
  statement(`insert:${n}`, () => {
    const head = `insert into \`dispensary_recommendation_item\` (${INSERT_COLUMNS.map((c) => `\`${c}\``).join(', ')})`;
    const conflict = ' on conflict (`recommendation_id`, `sku_key`) do nothing';
    if (n === 1) return `${head} values (${INSERT_COLUMNS.map(() => '?').join(', ')})${conflict}`;
    const row = INSERT_COLUMNS.map((c) => `? as \`${c}\``).join(', ');
    return `${head} select ${Array(n).fill(row).join(' union all select ')} where true${conflict}`;
  });
const updateItem = (fields: readonly string[]) =>
  statement(`update:${fields.join(',')}`, () => `update \`dispensary_recommendation_item\` set ${fields.map((f) => `\`${f}\` = ?`).join(', ')} where \`item_id\` = ?`);

const stores = new Map<string, number>();
function resolveStore(code: string | null): number {
  const key = code ?? '';
  const cached = stores.get(key);
  if (cached !== undefined) return cached;
  const row = (code === null ? sql.defaultStore.get(1, 1) : /^[a-z][a-z0-9_]{0,31}$/.test(code) ? sql.storeByCode.get(code, 1) : undefined) as
    | { store_id: number; is_active: number }
    | undefined;
  if (!row || !row.is_active) throw new HttpError(400, MSG.unknownStore, { storeCode: key.slice(0, 64) });
  stores.set(key, row.store_id);
  return row.store_id;
}

function authorize(req: IncomingMessage, storeId: number): void {
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !TOKEN_PATTERN.test(token)) throw unauthorized();
  const hash = hashToken(token);
  checkToken(sql.token.get(hash, 1) as TokenRow | undefined, hash, storeId);
}

// ---- the operations ----------------------------------------------------------------------------

function load(id: string, storeId: number): RecommendationRow {
  const key = id.trim().toLowerCase();
  if (!UUID.test(key)) throw notFound(id);
  const row = sql.load.get(key, storeId, 1) as RecommendationRow | undefined;
  if (!row) throw notFound(id);
  return row;
}

function readItems(recommendationId: string): { key: string; item: ItemOut }[] {
  return (sql.items.all(recommendationId) as ItemReadRow[]).map((row) => ({ key: row.sku_key, item: toItem(row, row.product_sku, truthy(row.is_in_stock)) }));
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
  const stored = readItems(rec.recommendation_id);
  const items = stored.map((s) => s.item);
  const byKey = new Map(stored.map((s) => [s.key, s.item]));
  const before = new Map(items.map((item) => [item.item_id, { ...item }]));
  for (const change of input) {
    const item = byKey.get(skuKey(change.sku)) as unknown as Record<string, unknown> | undefined;
    if (!item) continue;
    for (const [field, fallback] of UPDATABLE) {
      const value = change[field as keyof ItemInput];
      if (value !== undefined) item[field] = value ?? fallback;
    }
  }
  let changed = false;
  for (const item of items) {
    const old = before.get(item.item_id)!;
    const fields: string[] = [];
    const values: unknown[] = [];
    for (const [field] of UPDATABLE) {
      if (item[field] !== old[field]) {
        fields.push(field);
        values.push(item[field]);
      }
    }
    if (fields.length) {
      changed = true;
      updateItem(fields).run(...values, item.item_id);
    }
  }
  if (changed) {
    rec.updated_at = nowTimestamp();
    sql.touch.run(rec.updated_at, rec.recommendation_id);
  }
  return toRecommendation(rec, items);
});

// ---- HTTP --------------------------------------------------------------------------------------

const ROUTE = /^\/rest(?:\/([^/]+))?\/V1\/dispensary\/recommendation\/([^/]+)(\/item)?\/?$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer | null): void {
  try {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/health') return send(res, 200, { status: 'ok' });
    const match = ROUTE.exec(path);
    const isItem = match?.[3] !== undefined;
    const method = req.method ?? 'GET';
    if (!match || (isItem ? method !== 'POST' && method !== 'PUT' : method !== 'GET')) throw new HttpError(404, MSG.noRoute);
    const storeId = resolveStore(match[1] === undefined ? null : decodeURIComponent(match[1]));
    authorize(req, storeId);
    const id = decodeURIComponent(match[2]!);
    if (!isItem) {
      const rec = load(id, storeId);
      return send(res, 200, toRecommendation(rec, readItems(rec.recommendation_id).map((s) => s.item)));
    }
    let body: unknown;
    try {
      body = raw && raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      throw new HttpError(400, MSG.decoding);
    }
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      if (body === undefined) throw inputError([{ phrase: MSG.required, parameters: { fieldName: 'recommendation' } }]);
      throw new HttpError(400, MSG.notObject);
    }
    const input = validate(body as Record<string, unknown>);
    send(res, 200, method === 'POST' ? addItems(id, storeId, input) : updateItems(id, storeId, input));
  } catch (error) {
    if (error instanceof HttpError) return send(res, error.status, error.body());
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    send(res, 500, { message: MSG.internal });
  }
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return handle(req, res, null);
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return send(res, 415, { message: 'The content type "%contentType" is not supported. Send the body as application/json.', parameters: { contentType: type || '(none)' } });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > BODY_LIMIT) return send(res, 413, { message: 'The request body is larger than the limit of %limit bytes.', parameters: { limit: BODY_LIMIT } });
    handle(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  });
});
server.keepAliveTimeout = 5_000;
const { port, host } = readListenAddress({ port: 3002, host: '127.0.0.1' });
server.listen(port, host);
const stop = () => server.close(() => {
  db.close();
  process.exit(0);
});
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
