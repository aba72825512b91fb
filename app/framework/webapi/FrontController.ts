/**
 * The REST front controller: `/rest/<scope>/...` -> store scope -> the request processor that
 * takes the path (RequestProcessorPool.ts: the schema, the synchronous routes, the async web API,
 * any a module adds) -> JSON, or the error answered as Magento's. The store is resolved before a
 * processor is chosen, as in Magento's Rest controller; the processors that call a route
 * authorize the caller before the body is read, so an anonymous caller learns nothing from a 400.
 */
import type express from 'express';
import { ADMIN_STORE, type Store } from '../context/RequestContext.js';
import type { DatabaseHealth } from '../db/DatabaseHealth.js';
import { translateDatabaseError } from '../db/UnitOfWork.js';
import type { StoreResolverInterface } from '../store/StoreResolverInterface.js';
import type { ErrorRenderer } from './ErrorRenderer.js';
import { traceOf } from '../observability/RequestTrace.js';
import { RestAnswer, type RestRequest } from './RequestProcessorInterface.js';
import type { RequestProcessorPool } from './RequestProcessorPool.js';
import { NO_ROUTE } from './SynchronousRequestProcessor.js';
import { WebapiException } from './WebapiException.js';

export interface FrontControllerOptions {
  readonly processors: RequestProcessorPool;
  readonly stores: () => StoreResolverInterface | null;
  readonly errors: ErrorRenderer;
  /** Told about storage failures. */
  readonly health?: DatabaseHealth;
}

const VERSION_SEGMENT = /^V\d+$/;
const STORE_CODE = /^[a-z][a-z0-9_]{0,31}$/;

type Request = express.Request;
type Response = express.Response;

export class FrontController {
  constructor(private readonly options: FrontControllerOptions) {}

  /** Express handler mounted at `/rest`. */
  readonly handle = async (req: Request, res: Response): Promise<void> => {
    const trace = traceOf(res);
    try {
      const output = await this.dispatch(req);
      if (output instanceof RestAnswer) this.send(res, output.status, output.body);
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
    const defaultScope = VERSION_SEGMENT.test(segments[0]!) || isAsyncPrefix(segments);
    const scopeCode = defaultScope ? null : segments[0]!;
    const routePath = '/' + (defaultScope ? segments : segments.slice(1)).join('/');
    const store = await this.resolveStore(scopeCode);
    traceOf(req.res!).storeCode = store.code;
    const request: RestRequest = { http: req, method: req.method, routePath, scopeCode, store, defaultScope };
    return this.options.processors.getProcessor(request).process(request);
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
}

/** `/rest/async/V1/...` and `/rest/async/bulk/V1/...` name no store: the default one. */
function isAsyncPrefix(segments: readonly string[]): boolean {
  return (
    segments[0] === 'async' &&
    (VERSION_SEGMENT.test(segments[1] ?? '') || (segments[1] === 'bulk' && VERSION_SEGMENT.test(segments[2] ?? '')))
  );
}
