/**
 * Reference R on PostgreSQL: node:http + node-postgres (`pg`) with NAMED prepared statements (each
 * parsed once per connection by the server), the same statements as bench/servers/raw.ts in
 * PostgreSQL's spelling (the SQL knex writes for the product's queries), one transaction per
 * Add Items / Update Items (BEGIN ... COMMIT on one pooled connection), GET without one, the same
 * hand-written validation (rawValidation.ts), the same JSON out. No framework, no container, no
 * plugins, no schema validation library, no logging, no metrics, no request context.
 * PostgreSQL only (DATABASE_URL=postgres://...; `?schema=` sets the search path).
 *
 * Env (read through app/bootstrap/DeploymentConfig.ts): DATABASE_URL, PORT, HOST.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { databaseUrl, readListenAddress } from '../../app/bootstrap/DeploymentConfig.js';
import { parseDatabaseUrl } from '../../app/framework/db/databaseUrl.js';
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
if (!/^postgres(ql)?:\/\//.test(url)) {
  process.stderr.write('the raw PostgreSQL reference server runs on PostgreSQL only\n');
  process.exit(2);
}
// The same connection settings and type parsers (timestamps as text) as the service's.
const settings = parseDatabaseUrl(url).config as { connection: { connectionString: string }; searchPath?: string[] };
const pool = new pg.Pool({
  connectionString: settings.connection.connectionString,
  max: 10,
  options: settings.searchPath ? `-c search_path=${settings.searchPath.join(',')}` : undefined,
});

const BODY_LIMIT = 1024 * 1024;

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
  touch: { name: 'touch', text: 'update "dispensary_recommendation" set "updated_at" = $1 where "recommendation_id" = $2' },
} satisfies Record<string, Named>;
const ITEM_COLUMNS = ['item_id', 'recommendation_id', 'sku', 'sku_key', 'qty', 'autoship_interval', 'note', 'fulfillment_type', 'doctor_id', 'location_id'] as const;
const INSERT_COLUMNS = [...ITEM_COLUMNS].sort();

/** Statements whose text depends on a count or a column set: one name per shape. */
const shapes = new Map<string, Named>();
function shape(key: string, make: () => string): Named {
  let found = shapes.get(key);
  if (!found) shapes.set(key, (found = { name: key, text: make() }));
  return found;
}
const params = (from: number, n: number) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
const productsIn = (n: number) =>
  shape(`products_${n}`, () => `select "entity_id", "sku", "sku_key", "name", "price", "status", "is_in_stock" from "catalog_product" where "sku_key" in (${params(1, n)})`);
/** knex's multi-row insert on PostgreSQL: VALUES (...), (...), then the conflict clause. */
const insertItems = (n: number) =>
  shape(`insert_${n}`, () => {
    const width = INSERT_COLUMNS.length;
    const rows = Array.from({ length: n }, (_, r) => `(${params(r * width + 1, width)})`).join(', ');
    return `insert into "dispensary_recommendation_item" (${INSERT_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${rows} on conflict ("recommendation_id", "sku_key") do nothing`;
  });
const updateItem = (fields: readonly string[]) =>
  shape(`update_${fields.join('_')}`, () => `update "dispensary_recommendation_item" set ${fields.map((f, i) => `"${f}" = $${i + 1}`).join(', ')} where "item_id" = $${fields.length + 1}`);

const stores = new Map<string, number>();
async function resolveStore(code: string | null): Promise<number> {
  const key = code ?? '';
  const cached = stores.get(key);
  if (cached !== undefined) return cached;
  const rows =
    code === null
      ? await run<{ store_id: number; is_active: boolean | number }>(pool, sql.defaultStore, [true, 1])
      : /^[a-z][a-z0-9_]{0,31}$/.test(code)
        ? await run<{ store_id: number; is_active: boolean | number }>(pool, sql.storeByCode, [code, 1])
        : [];
  const row = rows[0];
  if (!row || !truthy(row.is_active)) throw new HttpError(400, MSG.unknownStore, { storeCode: key.slice(0, 64) });
  stores.set(key, row.store_id);
  return row.store_id;
}

async function authorize(req: IncomingMessage, storeId: number): Promise<void> {
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !TOKEN_PATTERN.test(token)) throw unauthorized();
  const hash = hashToken(token);
  checkToken((await run<TokenRow>(pool, sql.token, [hash, 1]))[0], hash, storeId);
}

// ---- the operations ----------------------------------------------------------------------------

async function load(db: Db, id: string, storeId: number): Promise<RecommendationRow> {
  const key = id.trim().toLowerCase();
  if (!UUID.test(key)) throw notFound(id);
  const row = (await run<RecommendationRow>(db, sql.load, [key, storeId, 1]))[0];
  if (!row) throw notFound(id);
  return row;
}

async function readItems(db: Db, recommendationId: string): Promise<{ key: string; item: ItemOut }[]> {
  return (await run<ItemReadRow>(db, sql.items, [recommendationId])).map((row) => ({ key: row.sku_key, item: toItem(row, row.product_sku, truthy(row.is_in_stock)) }));
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
    const stored = await readItems(db, rec.recommendation_id);
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
        await run(db, updateItem(fields), [...values, item.item_id]);
      }
    }
    if (changed) {
      rec.updated_at = nowTimestamp();
      await run(db, sql.touch, [rec.updated_at, rec.recommendation_id]);
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

async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer | null): Promise<void> {
  try {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/health') return send(res, 200, { status: 'ok' });
    const match = ROUTE.exec(path);
    const isItem = match?.[3] !== undefined;
    const method = req.method ?? 'GET';
    if (!match || (isItem ? method !== 'POST' && method !== 'PUT' : method !== 'GET')) throw new HttpError(404, MSG.noRoute);
    const storeId = await resolveStore(match[1] === undefined ? null : decodeURIComponent(match[1]));
    await authorize(req, storeId);
    const id = decodeURIComponent(match[2]!);
    if (!isItem) {
      const rec = await load(pool, id, storeId);
      return send(res, 200, toRecommendation(rec, (await readItems(pool, rec.recommendation_id)).map((s) => s.item)));
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
    send(res, 200, await (method === 'POST' ? addItems(id, storeId, input) : updateItems(id, storeId, input)));
  } catch (error) {
    if (error instanceof HttpError) return send(res, error.status, error.body());
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    send(res, 500, { message: MSG.internal });
  }
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return void handle(req, res, null);
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
    void handle(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  });
});
server.keepAliveTimeout = 5_000;
const { port, host } = readListenAddress({ port: 3002, host: '127.0.0.1' });
server.listen(port, host);
const stop = () => server.close(() => {
  void pool.end().finally(() => process.exit(0));
});
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
