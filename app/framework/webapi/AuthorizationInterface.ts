import type { IncomingHttpHeaders } from 'node:http';
import Joi from 'joi';
import { defineContract } from '../contract/Contract.js';
import type { Caller, Store } from '../context/RequestContext.js';

export interface AuthorizationRequest {
  /** The raw Authorization header, if any. */
  readonly authorization: string | undefined;
  /** The route's resources; all are required. Never contains `anonymous`. */
  readonly resources: readonly string[];
  readonly store: Store;
  /** The route changes data every store shares (webapi.xml `scope="global"`): a store-bound caller is refused. */
  readonly globalScope?: boolean;
  /** True for `/rest/V1/...` (no store code in the path). */
  readonly defaultScope: boolean;
  /** The HTTP request as the client sent it, for hooks that check a signature over it (OAuth 1.0a). */
  readonly http?: CalledRequest;
}

/** What a request signature covers: the URL the client called, not the one after proxies or routing. */
export interface CalledRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** `http` or `https`; behind a proxy, X-Forwarded-Proto when the `TRUST_PROXY` setting trusts it. */
  readonly scheme: string;
  /** The Host header (host and port as sent), or X-Forwarded-Host when trusted; undefined when absent. */
  readonly host: string | undefined;
  /** The path as sent, still percent-encoded, e.g. `/rest/default/V1/store/websites`. */
  readonly path: string;
  /** The query string as sent, without `?` (empty when none). */
  readonly rawQuery: string;
  readonly headers: IncomingHttpHeaders;
}

/**
 * The authorization hook: says who is calling and whether they may use the route, or throws
 * AuthorizationException. The integration module serves it; without one, every route that is
 * not `anonymous` is refused.
 */
export interface AuthorizationInterface {
  authorize(request: AuthorizationRequest): Promise<Caller>;
}

export const AuthorizationInterface = defineContract<AuthorizationInterface>(
  'Framework\\Webapi\\AuthorizationInterface',
  {
    authorize: { params: [{ name: 'request', schema: Joi.object().required() }] },
  },
);
