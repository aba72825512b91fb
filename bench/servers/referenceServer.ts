/**
 * The set-up the reference servers share, apart from how each talks to its database: the check of
 * DATABASE_URL, the scope's store and the caller's token (store ids cached by code), listening on
 * PORT/HOST and closing on SIGTERM/SIGINT (all three); and for the two raw ones (raw.ts on SQLite,
 * rawPostgres.ts on PostgreSQL) the node:http server itself: reading the body (415, 413), the
 * routes, the JSON answers and the errors.
 *
 * A raw reference's database calls answer a value (SQLite: everything a request does runs
 * synchronously once its body has arrived) or a promise (PostgreSQL); `then` goes on at once after
 * a value, so the SQLite reference stays synchronous.
 */
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { databaseUrl, readListenAddress } from '../../app/bootstrap/config/DeploymentConfig.js';
import {
  BEARER,
  checkToken,
  hashToken,
  HttpError,
  inputError,
  MSG,
  notFound,
  TOKEN_PATTERN,
  truthy,
  unauthorized,
  UUID,
  type ItemInput,
  type TokenRow,
} from './common.js';
import { validate } from './rawValidation.js';

export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` now when `value` is one, once it is there when it is a promise (a promise, not any thenable). */
export function then<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** DATABASE_URL when `accepted` takes it; else writes `refusal` and exits 2. */
export function requireDatabase(accepted: RegExp, refusal: string): string {
  const url = databaseUrl();
  if (!accepted.test(url)) {
    process.stderr.write(`${refusal}\n`);
    process.exit(2);
  }
  return url;
}

interface StoreRow {
  store_id: number | string;
  is_active: boolean | number | string;
}

/** How a reference reads the rows the route's scope and the caller's token are checked against. */
export interface AccessRows {
  /** The store of that code, or the default store with null. */
  storeRow(code: string | null): MaybePromise<StoreRow | undefined>;
  tokenRow(hash: string): MaybePromise<TokenRow | undefined>;
}

/**
 * The store id of a route's scope (null: the default store), once the Authorization header's
 * token is checked against it: 400 for an unknown or inactive store, then 401.
 */
export function authorizer(
  rows: AccessRows,
): (code: string | null, authorization: string | undefined) => MaybePromise<number> {
  const stores = new Map<string, number>();
  const resolveStore = (code: string | null): MaybePromise<number> => {
    const key = code ?? '';
    const cached = stores.get(key);
    if (cached !== undefined) return cached;
    const row = code === null || /^[a-z][a-z0-9_]{0,31}$/.test(code) ? rows.storeRow(code) : undefined;
    return then(row, (found) => {
      if (!found || !truthy(found.is_active))
        throw new HttpError(400, MSG.unknownStore, { storeCode: key.slice(0, 64) });
      stores.set(key, Number(found.store_id));
      return Number(found.store_id);
    });
  };
  return (code, authorization) =>
    then(resolveStore(code), (storeId) => {
      const token = BEARER.exec(authorization ?? '')?.[1];
      if (!token || !TOKEN_PATTERN.test(token)) throw unauthorized();
      const hash = hashToken(token);
      return then(rows.tokenRow(hash), (row) => {
        checkToken(row, hash, storeId);
        return storeId;
      });
    });
}

/** The recommendation id as stored (trimmed, lower case); 404 when it is no UUID. */
export function recommendationKey(id: string): string {
  const key = id.trim().toLowerCase();
  if (!UUID.test(key)) throw notFound(id);
  return key;
}

/** The row; 404 naming `id` when there is none. */
export function found<T>(row: T | undefined, id: string): T {
  if (!row) throw notFound(id);
  return row;
}

/** Listens on PORT/HOST (`defaultPort` on 127.0.0.1 unless set); SIGTERM or SIGINT closes the server, then `close`, then exits 0. */
export function listenUntilStopped(server: Server, defaultPort: number, close: () => MaybePromise<void>): void {
  const { port, host } = readListenAddress({ port: defaultPort, host: '127.0.0.1' });
  server.listen(port, host);
  const stop = () =>
    server.close(
      () =>
        void Promise.resolve()
          .then(close)
          .finally(() => process.exit(0)),
    );
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// ---- the raw references' node:http server ------------------------------------------------------

/** What a raw reference does with a request once its route, store and token are checked. */
export interface RawOperations extends AccessRows {
  get(id: string, storeId: number): MaybePromise<unknown>;
  addItems(id: string, storeId: number, input: ItemInput[]): MaybePromise<unknown>;
  updateItems(id: string, storeId: number, input: ItemInput[]): MaybePromise<unknown>;
  /** Closes the database once the server has stopped. */
  close(): MaybePromise<void>;
}

const BODY_LIMIT = 1024 * 1024;
const ROUTE = /^\/rest(?:\/([^/]+))?\/V1\/dispensary\/recommendation\/([^/]+)(\/item)?\/?$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

function fail(res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) return send(res, error.status, error.body());
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  send(res, 500, { message: MSG.internal });
}

/** 200 with what `work` answers (now, or once its promise settles), else the error's answer. */
function answer(res: ServerResponse, work: () => MaybePromise<unknown>): void {
  try {
    const body = work();
    if (body instanceof Promise)
      body.then(
        (value) => send(res, 200, value),
        (error: unknown) => fail(res, error),
      );
    else send(res, 200, body);
  } catch (error) {
    fail(res, error);
  }
}

/** The request body's items: 400 for a body that is no JSON, no object, or breaks a field rule. */
function itemsOf(raw: Buffer | null): ItemInput[] {
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
  return validate(body as Record<string, unknown>);
}

/** Serves the benchmark's three routes and /health with `operations` on `defaultPort`, until SIGTERM or SIGINT. */
export function serveRaw(operations: RawOperations, defaultPort: number): void {
  const authorize = authorizer(operations);
  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer | null): void =>
    answer(res, () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/health') return { status: 'ok' };
      const match = ROUTE.exec(path);
      const isItem = match?.[3] !== undefined;
      const method = req.method ?? 'GET';
      if (!match || (isItem ? method !== 'POST' && method !== 'PUT' : method !== 'GET'))
        throw new HttpError(404, MSG.noRoute);
      const scope = match[1] === undefined ? null : decodeURIComponent(match[1]);
      return then(authorize(scope, req.headers.authorization), (storeId) => {
        const id = decodeURIComponent(match[2]!);
        if (!isItem) return operations.get(id, storeId);
        const input = itemsOf(raw);
        return method === 'POST' ? operations.addItems(id, storeId, input) : operations.updateItems(id, storeId, input);
      });
    });

  const server = http.createServer((req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      req.resume();
      return handle(req, res, null);
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      req.resume();
      const message = 'The content type "%contentType" is not supported. Send the body as application/json.';
      return send(res, 415, { message, parameters: { contentType: type || '(none)' } });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > BODY_LIMIT) {
        return send(res, 413, {
          message: 'The request body is larger than the limit of %limit bytes.',
          parameters: { limit: BODY_LIMIT },
        });
      }
      handle(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 5_000;
  listenUntilStopped(server, defaultPort, () => operations.close());
}
