import Joi from 'joi';
import { defineContract } from '../contract/Contract.js';
import type { Caller, Store } from '../context/RequestContext.js';

export interface AuthorizationRequest {
  /** The raw Authorization header, if any. */
  readonly authorization: string | undefined;
  /** The route's resources; all are required. Never contains `anonymous`. */
  readonly resources: readonly string[];
  readonly store: Store;
  /** True for `/rest/V1/...` (no store code in the path). */
  readonly defaultScope: boolean;
}

/**
 * The authorization hook: says who is calling and whether they may use the route, or throws
 * AuthorizationException. The integration module serves it; without one, every route that is
 * not `anonymous` is refused.
 */
export interface AuthorizationInterface {
  authorize(request: AuthorizationRequest): Promise<Caller>;
}

export const AuthorizationInterface = defineContract<AuthorizationInterface>('Framework\\Webapi\\AuthorizationInterface', {
  authorize: { params: [{ name: 'request', schema: Joi.object().required() }] },
});
