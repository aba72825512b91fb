/**
 * The REST front controller: `/rest/<scope>/V1/...` -> store scope -> route -> authorization ->
 * body -> contract arguments -> one unit of work around the intercepted call -> snake_case JSON.
 * The order follows Magento's Rest controller: the store and the route are resolved and the
 * caller authorized before the body is read, so an anonymous caller learns nothing from a 400.
 */
import type express from 'express';
import {
  ADMIN_STORE,
  GUEST,
  newRequestContext,
  requestContext,
  type Caller,
  type Store,
} from '../context/RequestContext.js';
import { AuthorizationException } from '../exception/LocalizedException.js';
import { WebapiException } from './WebapiException.js';
import type { DatabaseHealth } from '../db/DatabaseHealth.js';
import type { UnitOfWork } from '../db/UnitOfWork.js';
import { translateDatabaseError } from '../db/UnitOfWork.js';
import type { StoreResolverInterface } from '../store/StoreResolverInterface.js';
import type { AuthorizationInterface } from './AuthorizationInterface.js';
import type { ErrorRenderer } from './ErrorRenderer.js';
import { traceOf } from '../observability/RequestTrace.js';
import { assertQueryParameterCount, assertSafeStrings } from './InputSafety.js';
import { JsonBodyReader } from './JsonBodyReader.js';
import { AsyncAnswer, type AsyncController, type RequestChecks, type RouteAccess } from './AsyncController.js';
import { applyFields, parseFields } from './PartialResponse.js';
import type { RouteRegistry } from './RouteRegistry.js';
import type { RouteTarget } from './RouteTarget.js';
import { snakeCaseKeys } from './naming.js';
import { requestedServices } from './SchemaGenerator.js';

export interface FrontControllerOptions {
  readonly routes: RouteRegistry<RouteTarget>;
  readonly stores: () => StoreResolverInterface | null;
  readonly authorization: () => AuthorizationInterface | null;
  readonly unitOfWork: UnitOfWork;
  readonly errors: ErrorRenderer;
  /** Largest accepted body, in bytes. */
  readonly bodyLimit: number;
  /** The largest body of `/async/bulk/...` (a JSON array of operations); `bodyLimit` when unset. */
  readonly bulkBodyLimit?: number;
  /** Deepest nesting of arrays and objects in a JSON body (64 by default). */
  readonly maxJsonDepth?: number;
  /** How long the whole body may take to arrive once reading starts; 408 after. */
  readonly bodyTimeoutMs?: number;
  /** Told about storage failures and about writes that committed. */
  readonly health?: DatabaseHealth;
  /**
   * The Swagger document of `GET /rest/<scope>/schema`, by scope code, for the services asked for
   * (`?services=name1V1,name2V2`; null for all) and the host asked on.
   */
  readonly schema?: (scopeCode: string, services: readonly string[] | null, host: string | undefined) => unknown;
  /** The Swagger document of the async forms, `GET /rest/<scope>/async/schema` (Magento's AsynchronousSchemaRequestProcessor). */
  readonly asyncSchema?: (scopeCode: string) => unknown;
  /** `/rest/<scope>/async/...`: the asynchronous and bulk web API, built on this controller's checks. */
  readonly async?: (checks: RequestChecks) => AsyncController;
}

const VERSION_SEGMENT = /^V\d+$/;
const STORE_CODE = /^[a-z][a-z0-9_]{0,31}$/;
const NO_ROUTE = 'Request does not match any route.';
const PUBLIC_RESOURCES = new Set(['anonymous']);

type Request = express.Request;
type Response = express.Response;

export class FrontController implements RequestChecks {
  private readonly async?: AsyncController;
  private readonly bodyReader: JsonBodyReader;
  private readonly bulkBodyReader: JsonBodyReader;

  constructor(private readonly options: FrontControllerOptions) {
    this.bodyReader = new JsonBodyReader(options);
    this.bulkBodyReader = new JsonBodyReader({ ...options, bodyLimit: options.bulkBodyLimit ?? options.bodyLimit });
    this.async = options.async?.(this);
  }

  /** Express handler mounted at `/rest`. */
  readonly handle = async (req: Request, res: Response): Promise<void> => {
    const trace = traceOf(res);
    try {
      const output = await this.dispatch(req);
      if (output instanceof AsyncAnswer) this.send(res, output.status, output.body);
      else this.send(res, 200, output);
    } catch (error) {
      this.options.health?.observe(error);
      const rendered = this.options.errors.render(translateDatabaseError(error), trace.requestId);
      if (rendered.reportId) trace.reportId = rendered.reportId;
      // An answer before the body was read (401, 404, 413...): close the connection rather than
      // let node read and discard whatever the client still sends.
      if (!req.complete && !res.headersSent) res.setHeader('Connection', 'close');
      // A body that timed out was answered already.
      if (!res.headersSent) {
        for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
        this.send(res, rendered.status, rendered.body);
      }
    }
  };

  private send(res: Response, status: number, body: unknown): void {
    const json = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(json);
  }

  private async dispatch(req: Request): Promise<unknown> {
    const segments = req.path.split('/').filter((s) => s !== '');
    if (segments.length === 0) throw new WebapiException(404, NO_ROUTE); // bare /rest: no scope to check
    const defaultScope = segments.length > 0 && (VERSION_SEGMENT.test(segments[0]!) || isAsyncPrefix(segments));
    const scopeCode = defaultScope ? null : (segments[0] ?? '');
    const routePath = '/' + (defaultScope ? segments : segments.slice(1)).join('/');
    const trace = traceOf(req.res!);
    const store = await this.resolveStore(scopeCode);
    trace.storeCode = store.code;
    if (routePath === '/schema' && req.method === 'GET' && this.options.schema) {
      trace.route = '/schema';
      return this.options.schema(scopeCode ?? 'default', requestedServices(req.query.services), req.get('host'));
    }
    // `/rest/<store>` and nothing after it: no processor of Magento's takes it.
    if (routePath === '/') throw new WebapiException(400, 'Specified request cannot be processed.');
    if (routePath === '/async/schema' && req.method === 'GET' && this.options.asyncSchema && this.async?.available()) {
      trace.route = '/async/schema';
      return this.options.asyncSchema(scopeCode ?? 'default');
    }
    if (this.async && routePath.startsWith('/async/')) return this.async.dispatch(req, routePath, store, defaultScope);
    const match = this.options.routes.match(req.method, routePath);
    if (!match) throw new WebapiException(404, NO_ROUTE);
    const { route, pathParams } = match;
    trace.route = route.definition.url;

    // req.ip follows Express's `trust proxy` (TRUST_PROXY): the socket's address unless told otherwise.
    const context = newRequestContext(trace.requestId, store, () => req.ip ?? req.socket.remoteAddress);
    return requestContext.run(context, async () => {
      context.caller = await this.authorize(req, route.definition, store, defaultScope);
      trace.caller = context.caller;
      const body = await this.readBody(req);
      const target = route.target;
      // The query parser drops parameters past its limit without a word: count them first.
      assertQueryParameterCount(req.originalUrl);
      // Express 5 parses the query string on every read of req.query: read it once.
      const query = req.query as Record<string, unknown>;
      assertSafeStrings({ pathParams, body, query });
      const mapped = target.mapper.map({
        pathParams,
        body,
        query: req.method === 'GET' || req.method === 'DELETE' ? query : undefined,
        placeholders: placeholders(store, context.caller),
        method: req.method,
      });
      const args = target.prepare ? await target.prepare(mapped) : mapped;
      const result = target.transactional
        ? await this.options.unitOfWork
            .run(() => target.invoke(args))
            .then((value) => {
              this.options.health?.writeSucceeded();
              return value;
            })
        : await target.invoke(args).catch((error: unknown) => {
            throw translateDatabaseError(error);
          });
      let output = snakeCaseKeys(result);
      const fields = typeof query.fields === 'string' ? parseFields(query.fields) : null;
      if (fields) output = applyFields(output, fields);
      return output === undefined ? null : output;
    });
  }

  private async resolveStore(code: string | null): Promise<Store> {
    const stores = this.options.stores();
    if (code === null) {
      return stores
        ? stores.getDefaultStore()
        : { ...ADMIN_STORE, id: 1, code: 'default', name: 'Default Store View', websiteId: 1, storeGroupId: 1 };
    }
    if (code === 'all') return ADMIN_STORE;
    const store = STORE_CODE.test(code) && stores ? await stores.getStoreByCode(code) : null;
    if (!store) {
      throw new WebapiException(400, 'The store code "%storeCode" is unknown. Verify the store and try again.', {
        storeCode: code.slice(0, 64),
      });
    }
    return store;
  }

  /** Everything the route asks of its caller: its ACL resources and, for a `scope="global"` route, a caller of every store. */
  async authorize(req: Request, route: RouteAccess, store: Store, defaultScope: boolean): Promise<Caller> {
    const { resources } = route;
    if (resources.some((r) => PUBLIC_RESOURCES.has(r))) return GUEST;
    const authorization = this.options.authorization();
    if (!authorization) throw AuthorizationException.forResources(resources);
    const [path = '', rawQuery = ''] = splitOnce(req.originalUrl, '?');
    // Scheme and host only when a hook asks (OAuth signatures): Express works them out from proxy headers.
    const http = {
      method: req.method.toUpperCase(),
      get scheme() {
        return req.protocol;
      },
      get host() {
        return req.host;
      },
      path,
      rawQuery,
      headers: req.headers,
    };
    return authorization.authorize({
      authorization: req.headers.authorization,
      resources,
      store,
      defaultScope,
      ...(route.scope === 'global' ? { globalScope: true } : {}),
      http,
    });
  }

  placeholders(store: Store, caller: Caller): Record<string, string | number | null> {
    return placeholders(store, caller);
  }

  /** The JSON body; an array only where `acceptArray` (bulk requests). */
  readBody(req: Request, acceptArray = false): Promise<Record<string, unknown> | undefined> {
    // Only a bulk request's body is an array; its limit is the bulk one (imports of thousands of operations).
    return acceptArray ? this.bulkBodyReader.read(req, true) : this.bodyReader.read(req);
  }
}

function splitOnce(value: string, separator: string): [string, string] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
}

/** `/rest/async/V1/...` and `/rest/async/bulk/V1/...` name no store: the default one. */
function isAsyncPrefix(segments: readonly string[]): boolean {
  return (
    segments[0] === 'async' &&
    (VERSION_SEGMENT.test(segments[1] ?? '') || (segments[1] === 'bulk' && VERSION_SEGMENT.test(segments[2] ?? '')))
  );
}

function placeholders(store: Store, caller: Caller): Record<string, string | number | null> {
  // Magento's %customer_id% is the customer's id, and null for every other caller (integration, admin, guest).
  const customerId = (caller.type as string) === 'customer' ? caller.id : null;
  return {
    store_id: store.id,
    store_code: store.code,
    caller_id: caller.id,
    customer_id: customerId,
    user_id: caller.id,
  };
}
