/**
 * What answers a `/rest` request once the front controller has split off the scope and resolved
 * the store (Magento's `Magento\Webapi\Controller\Rest\RequestProcessorInterface`): the pool
 * (RequestProcessorPool.ts) asks each processor `canProcess()` in turn and the first that says
 * yes `process()`es the request. The framework's own: the schema (`/schema`), the synchronous
 * routes (`/V1/...`) and, from app/framework/webapi-async, the async schema and the async and bulk
 * routes (`/async/...`); a module adds one through di.xml (docs/reference/di-xml.md).
 */
import type express from 'express';
import type { Caller, Store } from '../context/RequestContext.js';
import type { RouteDefinition } from '../config/WebapiConfig.js';

/** A `/rest` request as the processors see it. */
export interface RestRequest {
  readonly http: express.Request;
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The path after `/rest/<scope>`: `/V1/...`, `/schema`, `/async/V1/...`. */
  readonly routePath: string;
  /** The store code the URL names; null when it names none (`/rest/V1/...`: the default store). */
  readonly scopeCode: string | null;
  readonly store: Store;
  /** The URL names no store. */
  readonly defaultScope: boolean;
}

/** An answer with a status other than 200 (the async web API's 202). */
export class RestAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export interface RequestProcessorInterface {
  /** Whether this processor answers the request; the first of the pool that does wins. */
  canProcess(request: RestRequest): boolean;
  /** The answer: a body sent as JSON with 200, or a RestAnswer; errors are thrown (LocalizedException, WebapiException). */
  process(request: RestRequest): Promise<unknown>;
}

/** What a route asks of its caller (webapi.xml): its ACL resources and its scope. */
export type RouteAccess = Pick<RouteDefinition, 'resources' | 'scope'>;

/** The checks every processor that calls a route makes alike (RestRequestChecks.ts). */
export interface RequestChecks {
  /** Everything the route asks of its caller: its ACL resources and, for a `scope="global"` route, a caller of every store. */
  authorize(req: express.Request, route: RouteAccess, store: Store, defaultScope: boolean): Promise<Caller>;
  /** The JSON body; an array only where `acceptArray` (bulk requests). */
  readBody(req: express.Request, acceptArray?: boolean): Promise<unknown>;
  /** The `%store_id%`-style placeholders webapi.xml's `<data>` may name. */
  placeholders(store: Store, caller: Caller): Record<string, string | number | null>;
}
