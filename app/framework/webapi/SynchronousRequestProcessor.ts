/**
 * The synchronous routes of webapi.xml (Magento's SynchronousRequestProcessor, `sync` in the
 * pool, asked last): route -> request context -> authorization -> body -> contract arguments ->
 * one unit of work around the intercepted call -> snake_case JSON, `?fields=` applied. It takes
 * every path but `/` (a path that matches no route answers 404 `Request does not match any
 * route.`, where Magento's answers 400 for a path that is not `/V<n>/...`).
 */
import { newRequestContext, requestContext } from '../context/RequestContext.js';
import type { DatabaseHealth } from '../db/DatabaseHealth.js';
import type { UnitOfWork } from '../db/UnitOfWork.js';
import { traceOf } from '../observability/RequestTrace.js';
import { assertQueryParameterCount, assertSafeStrings } from './InputSafety.js';
import { applyFields, parseFields } from './PartialResponse.js';
import type { RequestChecks, RequestProcessorInterface, RestRequest } from './RequestProcessorInterface.js';
import type { RouteRegistry } from './RouteRegistry.js';
import type { RouteHandler } from './RouteHandler.js';
import { WebapiException } from './WebapiException.js';

export const NO_ROUTE = 'Request does not match any route.';

export interface SynchronousRequestProcessorOptions {
  readonly routes: RouteRegistry<RouteHandler>;
  readonly checks: RequestChecks;
  readonly unitOfWork: UnitOfWork;
  /** Told about writes that committed. */
  readonly health?: DatabaseHealth;
}

export class SynchronousRequestProcessor implements RequestProcessorInterface {
  constructor(private readonly options: SynchronousRequestProcessorOptions) {}

  canProcess(request: RestRequest): boolean {
    // `/rest/<store>` and nothing after it: no processor of Magento's takes it.
    return request.routePath !== '/';
  }

  async process({ http: req, routePath, store, defaultScope }: RestRequest): Promise<unknown> {
    const { checks } = this.options;
    const match = this.options.routes.match(req.method, routePath);
    if (!match) throw new WebapiException(404, NO_ROUTE);
    const { route, pathParams } = match;
    const trace = traceOf(req.res!);
    trace.route = route.definition.url;

    // req.ip follows Express's `trust proxy` (TRUST_PROXY): the socket's address unless told otherwise.
    const context = newRequestContext(trace.requestId, store, () => req.ip ?? req.socket.remoteAddress);
    return requestContext.run(context, async () => {
      context.caller = await checks.authorize(req, route.definition, store, defaultScope);
      trace.caller = context.caller;
      const body = (await checks.readBody(req)) as Record<string, unknown> | undefined;
      const handler = route.target;
      // The query parser drops parameters past its limit without a word: count them first.
      assertQueryParameterCount(req.originalUrl);
      // Express 5 parses the query string on every read of req.query: read it once.
      const query = req.query as Record<string, unknown>;
      assertSafeStrings({ pathParams, body, query });
      const args = handler.accept({
        pathParams,
        body,
        query: req.method === 'GET' || req.method === 'DELETE' ? query : undefined,
        placeholders: checks.placeholders(store, context.caller),
        method: req.method,
      });
      const { unitOfWork, health } = this.options;
      const result = await handler.execute(args, unitOfWork, health && (() => health.writeSucceeded()));
      let output = handler.output(result);
      const fields = typeof query.fields === 'string' ? parseFields(query.fields) : null;
      if (fields) output = applyFields(output, fields);
      return output === undefined ? null : output;
    });
  }
}
