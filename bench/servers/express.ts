/**
 * Reference E: what a developer would write instead of the framework, for the benchmark's three
 * routes. Express 5 + express.json + the same joi schema (the contract's field rules) + knex with
 * the same queries in the same transaction as the service, the same JSON out. No DI container,
 * no plugins, no request context: that is the difference the benchmark measures.
 *
 * Env (read through app/bootstrap/config/DeploymentConfig.ts): DATABASE_URL, PORT, HOST.
 */
import 'reflect-metadata';
import http from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type Joi from 'joi';
import knexFactory, { type Knex } from 'knex';
import { databaseUrl } from '../../app/bootstrap/config/DeploymentConfig.js';
import { itemsRequestSchema } from '../../modules/Dispensary/Recommendation/Api/schemas.js';
// The product's column list; this reference loads the framework already (the joi schema above).
import { ITEM_COLUMNS } from '../../modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.js';
import { HttpError, inputError, MSG, nowTimestamp, toItem, toRecommendation, truthy } from './common.js';
import type { ItemInput, ItemOut, ItemReadRow, Params, RecommendationRow, TokenRow } from './common.js';
import { itemUpdates, newItemRows, newItems, type ProductRow } from './rawAddItems.js';
import { authorizer, found, listenUntilStopped, recommendationKey } from './referenceServer.js';

/**
 * A knex config as a user writes it: the same driver and pragmas the service uses. A copy of
 * parseDatabaseUrl on purpose: the service's adds its prepared-statement cache, which is part of
 * what the benchmark measures, not something a user's plain knex set-up has.
 */
function knexConfig(url: string): Knex.Config {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length);
    return {
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('foreign_keys = ON');
          done(null, conn);
        },
      },
    };
  }
  const parsed = new URL(url);
  if (parsed.protocol === 'mysql:' || parsed.protocol === 'mariadb:') {
    return {
      client: 'mysql2',
      connection: {
        host: parsed.hostname,
        port: Number(parsed.port || 3306),
        user: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
        database: parsed.pathname.slice(1),
        dateStrings: true,
        decimalNumbers: true,
        charset: 'utf8mb4',
        timezone: 'Z',
      },
      pool: { min: 0, max: 10 },
    };
  }
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  return {
    client: 'pg',
    connection: { connectionString: parsed.toString() },
    searchPath: schema ? [schema] : undefined,
    pool: { min: 0, max: 10 },
  };
}

const url = databaseUrl();
const knex = knexFactory(knexConfig(url));
const lockRows = !url.startsWith('sqlite:');

interface StoreRow {
  store_id: number;
  is_active: number | boolean;
}

/** The route's store id (the default store without a scope), once the caller's token is checked against it. */
const authorize = authorizer({
  // async: a knex query is a thenable, not a promise.
  storeRow: async (code) =>
    (await knex('store')
      .where(code === null ? { is_default: true } : { code })
      .first()) as StoreRow | undefined,
  tokenRow: async (hash) =>
    (await knex('integration_token').where({ token_hash: hash }).first()) as TokenRow | undefined,
});

function validate(body: unknown): ItemInput[] {
  const value = (body as Record<string, unknown> | undefined)?.recommendation;
  if (value === undefined) throw inputError([{ phrase: MSG.required, parameters: { fieldName: 'recommendation' } }]);
  const result = itemsRequestSchema.validate(value, {
    abortEarly: false,
    convert: true,
    errors: { wrap: { label: false } },
  });
  if (result.error) throw inputError(result.error.details.map(joiError));
  return (result.value as { items: ItemInput[] }).items;
}

function joiError(detail: Joi.ValidationErrorItem): { phrase: string; parameters: Params } {
  let fieldName = 'recommendation';
  for (const part of detail.path) fieldName += typeof part === 'number' ? `[${part}]` : `.${part}`;
  const error = detail.context?.error as { phrase?: string; parameters?: Params } | undefined;
  if (detail.type === 'any.required') return { phrase: MSG.required, parameters: { fieldName } };
  if (detail.type === 'object.unknown') return { phrase: MSG.unknownField, parameters: { fieldName } };
  if (detail.type === 'any.custom' && error?.phrase)
    return { phrase: error.phrase, parameters: { ...error.parameters } };
  const raw = detail.context?.value as unknown;
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : (JSON.stringify(raw) ?? String(raw));
  return {
    phrase: MSG.invalid,
    parameters: { fieldName, value: text.length > 200 ? `${text.slice(0, 200)}...` : text },
  };
}

async function loadRecommendation(
  db: Knex,
  id: string,
  storeId: number,
  forUpdate: boolean,
): Promise<RecommendationRow> {
  const query = db('dispensary_recommendation')
    .where('recommendation_id', recommendationKey(id))
    .andWhere('store_id', storeId);
  if (forUpdate && lockRows) query.forUpdate();
  return found((await query.first()) as RecommendationRow | undefined, id);
}

async function readItems(db: Knex, recommendationId: string): Promise<{ key: string; item: ItemOut }[]> {
  const rows = (await db('dispensary_recommendation_item as i')
    .leftJoin('catalog_product as p', 'p.sku_key', 'i.sku_key')
    .where('i.recommendation_id', recommendationId)
    .orderBy('i.entity_id')
    .select(ITEM_COLUMNS)) as ItemReadRow[];
  return rows.map((row) => ({ key: row.sku_key, item: toItem(row, row.product_sku, truthy(row.is_in_stock)) }));
}

async function addItems(trx: Knex.Transaction, id: string, storeId: number, input: ItemInput[]) {
  const rec = await loadRecommendation(trx, id, storeId, true);
  const stored = await readItems(trx, rec.recommendation_id);
  const existing = new Set(stored.map((s) => s.key));
  const items = stored.map((s) => s.item);
  // First occurrence of each new sku wins; skus already in the recommendation are ignored.
  const first = newItems(input, existing);
  if (first.size === 0) return toRecommendation(rec, items);
  const matching = (await trx('catalog_product')
    .select(['entity_id', 'sku', 'sku_key', 'name', 'price', 'status', 'is_in_stock'])
    .whereIn('sku_key', [...first.keys()])) as ProductRow[];
  const products = new Map(matching.map((p) => [p.sku_key, p]));
  const rows = newItemRows(first, products, rec.recommendation_id);
  // 100 rows per statement, as the service: SQLite refuses a compound SELECT of more than 500 terms.
  for (let i = 0; i < rows.length; i += 100) {
    await trx('dispensary_recommendation_item')
      .insert(rows.slice(i, i + 100))
      .onConflict(['recommendation_id', 'sku_key'])
      .ignore();
  }
  for (const row of rows) {
    const product = products.get(row.sku_key)!;
    items.push(toItem(row, product.sku, product.is_in_stock === true || Number(product.is_in_stock) === 1));
  }
  rec.updated_at = nowTimestamp();
  await trx('dispensary_recommendation')
    .where('recommendation_id', rec.recommendation_id)
    .update({ updated_at: rec.updated_at });
  return toRecommendation(rec, items);
}

async function updateItems(trx: Knex.Transaction, id: string, storeId: number, input: ItemInput[]) {
  const rec = await loadRecommendation(trx, id, storeId, true);
  const { items, updates } = itemUpdates(await readItems(trx, rec.recommendation_id), input);
  for (const { itemId, fields, values } of updates) {
    const changes = Object.fromEntries(fields.map((field, i) => [field, values[i]]));
    await trx('dispensary_recommendation_item').where('item_id', itemId).update(changes);
  }
  if (updates.length) {
    rec.updated_at = nowTimestamp();
    await trx('dispensary_recommendation')
      .where('recommendation_id', rec.recommendation_id)
      .update({ updated_at: rec.updated_at });
  }
  return toRecommendation(rec, items);
}

function fail(res: Response, error: unknown): void {
  if (error instanceof HttpError) {
    res.status(error.status).json(error.body());
    return;
  }
  const parserError = error as { type?: string; status?: number };
  if (parserError.type === 'entity.parse.failed') {
    res.status(400).json({ message: MSG.decoding });
    return;
  }
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  res.status(500).json({ message: MSG.internal });
}

const app = express();
app.disable('x-powered-by');
app.set('etag', false); // the service sends no ETag either: the same response
app.use(express.json({ limit: '1mb' }));

const ITEM_ROUTE = '/rest{/:scope}/V1/dispensary/recommendation/:id/item';

/** Add Items (POST) and Update Items (PUT): the same checks, then the operation in one transaction. */
const itemRoute = (operation: typeof addItems) => async (req: Request, res: Response) => {
  try {
    const storeId = await authorize((req.params.scope as string | undefined) ?? null, req.headers.authorization);
    const input = validate(req.body);
    res.json(await knex.transaction((trx) => operation(trx, req.params.id as string, storeId, input)));
  } catch (error) {
    fail(res, error);
  }
};

app.post(ITEM_ROUTE, itemRoute(addItems));
app.put(ITEM_ROUTE, itemRoute(updateItems));

app.get('/rest{/:scope}/V1/dispensary/recommendation/:id', async (req, res) => {
  try {
    const storeId = await authorize(req.params.scope ?? null, req.headers.authorization);
    const rec = await loadRecommendation(knex, req.params.id as string, storeId, false);
    const items = (await readItems(knex, rec.recommendation_id)).map((s) => s.item);
    res.json(toRecommendation(rec, items));
  } catch (error) {
    fail(res, error);
  }
});

app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});

app.use((_req: Request, res: Response) => {
  res.status(404).json({ message: MSG.noRoute });
});

app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => fail(res, error));

listenUntilStopped(http.createServer(app), 3001, () => knex.destroy());
