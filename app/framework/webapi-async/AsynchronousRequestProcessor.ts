/**
 * The asynchronous and bulk web API (Magento_WebapiAsync's AsynchronousRequestProcessor, `async`
 * in the request processor pool: every path under `/async/`): every POST, PUT and DELETE route also
 * answers under `/async/V1/...` (one request) and `/async/bulk/V1/...` (a JSON array; path
 * parameters spelled `by<Param>`, each element carrying the parameter). The store, the caller
 * (the route's resources and scope, through the same RequestChecks as the synchronous route) and
 * every element's input are checked exactly as the synchronous route checks them, through the
 * route's own handler (RouteHandler.accept: its input mapper, then every step's accept()); one element that fails its input answers 400 for the whole request, nothing
 * queued (Magento's InputParamsResolver). Then the bulk is recorded and its operations queued,
 * and the answer is 202 with `bulk_uuid`, `request_items` and `errors`. A GET answers 400
 * `Specified request cannot be processed.`, as Magento's.
 */
import { createHash, randomUUID } from 'node:crypto';
import { newRequestContext, requestContext } from '../context/RequestContext.js';
import type { BulkManagementInterface, OperationToSchedule } from '../bulk/BulkManagementInterface.js';
import { InputException, type InputError } from '../exception/InputException.js';
import { LocalizedException, renderPhrase } from '../exception/LocalizedException.js';
import { ServiceUnavailableException } from '../exception/ServiceUnavailableException.js';
import { httpStatusOf } from '../webapi/ErrorProcessor.js';
import { WebapiException } from '../webapi/WebapiException.js';
import type { RouteDefinition } from '../config/WebapiConfig.js';
import { QueueUnavailableError } from '../queue/QueueConnection.js';
import { SERVICE_UNAVAILABLE, translateDatabaseError } from '../db/UnitOfWork.js';
import type { RouteHandler } from '../webapi/RouteHandler.js';
import { traceOf } from '../observability/RequestTrace.js';
import { RouteRegistry } from '../webapi/RouteRegistry.js';
import { assertQueryParameterCount, assertSafeStrings } from '../webapi/InputSafety.js';
import {
  RestAnswer,
  type RequestChecks,
  type RequestProcessorInterface,
  type RestRequest,
} from '../webapi/RequestProcessorInterface.js';
import { CANNOT_PROCESS } from '../webapi/RequestProcessorPool.js';
import { NO_ROUTE } from '../webapi/SynchronousRequestProcessor.js';

/** Operations one bulk request may hold unless BULK_MAX_OPERATIONS says otherwise (issue 20: 10,000 accepted in under a second). */
export const MAX_BULK_SIZE = 10_000;
const ASYNC_METHODS = new Set(['POST', 'PUT', 'DELETE']);

/** Whether a route has async forms: POST, PUT and DELETE routes that need a caller, unless webapi.xml says async="false". */
export function hasAsyncForm(route: RouteDefinition): boolean {
  return ASYNC_METHODS.has(route.method) && !route.resources.includes('anonymous') && route.async !== false;
}
/** Magento's MassSchedule names a failed element so; the project adds why. */
export const ELEMENT_ERROR = 'Error processing %key element of input data: %error';

/** Magento's topic for a route: `async.<service class>.<method>.<http method>`, lower case. */
export function asyncTopic(route: RouteDefinition): string {
  return `async.${route.serviceClass.replace(/\\/g, '.')}.${route.serviceMethod}.${route.method}`.toLowerCase();
}

/**
 * The partition key of an operation: the route's `partitionKey` (webapi.xml), else its first path
 * parameter, named with its value (`recommendationId=42`), so routes naming one entity alike share
 * its order; null when the route names none or the request lacks it.
 */
export function partitionKeyOf(
  route: RouteDefinition,
  params: readonly string[],
  pathParams: Record<string, string>,
  body: unknown,
): string | null {
  const name = route.partitionKey ?? params[0];
  if (name === undefined) return null;
  let value: unknown = pathParams[name];
  if (value === undefined) {
    value = body;
    for (const step of name.split('.'))
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  }
  return typeof value === 'string' || typeof value === 'number' ? `${name}=${String(value)}` : null;
}

/** `/V1/a/:recommendationId/item` -> `/V1/a/byRecommendationId/item` */
export function bulkUrl(url: string): string {
  return url.replace(/\/:(\w)(\w*)/g, (_, first: string, rest: string) => `/by${first.toUpperCase()}${rest}`);
}

interface AsyncTarget {
  /** The route as webapi.xml declares it (the bulk registry holds the by<Param> spelling). */
  readonly definition: RouteDefinition;
  readonly handler: RouteHandler;
  /** The route's path parameter names. */
  readonly params: readonly string[];
}

export class AsynchronousRequestProcessor implements RequestProcessorInterface {
  private readonly single = new RouteRegistry<AsyncTarget>();
  private readonly bulk = new RouteRegistry<AsyncTarget>();

  constructor(
    /** Every route's handler; those with async forms are served. */
    handlers: Iterable<RouteHandler>,
    private readonly bulks: () => BulkManagementInterface | null,
    private readonly checks: RequestChecks,
    private readonly maxOperations = MAX_BULK_SIZE,
  ) {
    for (const handler of handlers) {
      const definition = handler.route;
      // Anonymous routes (e.g. the admin token) stay synchronous: a guest could not read the bulk's status anyway.
      if (!hasAsyncForm(definition)) continue;
      const entry: AsyncTarget = {
        definition,
        handler,
        params: [...definition.url.matchAll(/\/:(\w+)/g)].map((m) => m[1]!),
      };
      this.single.add(definition, entry);
      this.bulk.add({ ...definition, url: bulkUrl(definition.url) }, entry);
    }
  }

  /** Every path under `/async/` (without a module that records bulks, each answers 404). */
  canProcess(request: RestRequest): boolean {
    return request.routePath.startsWith('/async/');
  }

  async process({ http: req, routePath, store, defaultScope }: RestRequest): Promise<RestAnswer> {
    const segments = routePath.split('/').filter((s) => s !== '');
    const isBulk = segments[1] === 'bulk';
    const path = '/' + segments.slice(isBulk ? 2 : 1).join('/');
    const bulks = this.bulks();
    // Magento's asynchronous request processor takes no GET: no processor can, so its Rest controller answers 400.
    if (bulks && req.method === 'GET') throw new WebapiException(400, CANNOT_PROCESS);
    const match =
      bulks && ASYNC_METHODS.has(req.method) ? (isBulk ? this.bulk : this.single).match(req.method, path) : null;
    if (!match) throw new WebapiException(404, NO_ROUTE);
    const { route, pathParams } = match;
    const { definition, handler, params: paramNames } = route.target;
    // The request log and metrics name the async route's pattern and caller, as for a synchronous route.
    const trace = traceOf(req.res!);
    trace.route = `/async${isBulk ? '/bulk' : ''}${route.definition.url}`;

    return requestContext.run(
      newRequestContext(trace.requestId, store, () => req.ip ?? req.socket.remoteAddress),
      async () => {
        const caller = await this.checks.authorize(req, definition, store, defaultScope);
        requestContext.current()!.caller = caller;
        trace.caller = caller;
        const body = await this.checks.readBody(req, isBulk);
        const placeholders = this.checks.placeholders(store, caller);
        const request = (args: unknown[]) => ({ method: definition.method, url: definition.url, args, store, caller });
        const operations: OperationToSchedule[] = [];
        if (isBulk) {
          if (!Array.isArray(body))
            throw new WebapiException(400, 'The request body must be a JSON array of operations.');
          if (body.length === 0)
            throw new WebapiException(400, 'The request body must contain at least one operation.');
          if (body.length > this.maxOperations) {
            throw new WebapiException(
              400,
              'A bulk request can contain at most %limit operations; this one has %count.',
              { limit: this.maxOperations, count: body.length },
            );
          }
          // As Magento's InputParamsResolver: every element is converted to the route's input first, and
          // one that cannot be fails the whole request (Magento: 500; here 400 naming each element and why).
          const errors: InputError[] = [];
          body.forEach((element: unknown, key) => {
            try {
              if (!element || typeof element !== 'object' || Array.isArray(element)) {
                throw new WebapiException(400, 'Each operation of a bulk request must be a JSON object.');
              }
              const own = element as Record<string, unknown>;
              const params: Record<string, string> = {};
              for (const name of paramNames) {
                const value = own[name] ?? own[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
                if (typeof value === 'string' || typeof value === 'number') params[name] = String(value);
              }
              // The same character rules as the synchronous route.
              // The path parameters are keys of the element itself: checking the element names each once.
              assertSafeStrings({ pathParams: {}, body: own, query: undefined });
              const args = handler.accept({ pathParams: params, body: own, query: undefined, placeholders });
              operations.push(accepted(key, request(args), partitionKeyOf(definition, paramNames, params, own)));
            } catch (error) {
              if (!(error instanceof LocalizedException) || httpStatusOf(error) !== 400) throw error;
              for (const reason of reasons(error))
                errors.push({ phrase: ELEMENT_ERROR, parameters: { key, error: reason } });
            }
          });
          if (errors.length) throw new InputException(errors);
        } else {
          if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
            throw new WebapiException(400, 'The request body must be a JSON object.');
          }
          // One request: bad input answers 400 at once, as the synchronous route would.
          assertQueryParameterCount(req.originalUrl);
          const query = req.method === 'DELETE' ? (req.query as Record<string, unknown>) : undefined;
          assertSafeStrings({ pathParams, body, query });
          const args = handler.accept({
            pathParams,
            body: body as Record<string, unknown> | undefined,
            query,
            placeholders,
          });
          operations.push(accepted(0, request(args), partitionKeyOf(definition, paramNames, pathParams, body)));
        }

        const uuid = randomUUID();
        const topic = asyncTopic(definition);
        try {
          await bulks!.scheduleBulk({ uuid, topic, description: `Topic ${topic}`, caller, operations });
        } catch (error) {
          if (error instanceof QueueUnavailableError) {
            throw new ServiceUnavailableException(SERVICE_UNAVAILABLE, {}, undefined, { cause: error });
          }
          throw translateDatabaseError(error);
        }
        return new RestAnswer(202, {
          bulk_uuid: uuid,
          request_items: operations.map((op) =>
            op.status === 5
              ? {
                  id: op.key,
                  data_hash: null,
                  status: 'rejected',
                  error_message: op.errorMessage,
                  error_code: op.errorCode,
                }
              : { id: op.key, data_hash: op.dataHash, status: 'accepted' },
          ),
          errors: operations.some((op) => op.status === 5),
        });
      },
    );
  }
}

function accepted(
  key: number,
  request: OperationToSchedule['request'] & object,
  partitionKey: string | null,
): OperationToSchedule {
  const dataHash = createHash('sha256').update(JSON.stringify(request.args)).digest('hex');
  return { key, status: 4, request, dataHash, partitionKey };
}

/** Why an element was refused: each input error, placeholders filled. */
function reasons(error: LocalizedException): string[] {
  if (error instanceof InputException) return error.errors.map((e) => renderPhrase(e.phrase, e.parameters));
  return [renderPhrase(error.phrase, error.parameters)];
}
