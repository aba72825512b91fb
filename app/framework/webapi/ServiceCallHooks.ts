import Joi from 'joi';
import { defineContract } from '../contract/Contract.js';

/** A contract method the web API reaches (webapi.xml), as hooks see it. */
export interface ServiceCall {
  /** The contract's name, e.g. `Dispensary\Recommendation\Api\RecommendationItemManagementInterface`. */
  readonly serviceClass: string;
  readonly method: string;
  /** The parameter names, in order (the arguments by name are `params[i]: args[i]`). */
  readonly params: readonly string[];
}

/**
 * Hooks around every web-API-reachable contract call, for the synchronous web API, the async web
 * API and the bulk consumers alike (a module serves it with a di.xml preference; without one,
 * nothing runs). Unlike di.xml plugins they are chosen per call, so they can change at run time.
 *
 * `before` runs BEFORE the unit of work opens: no database connection is held while it waits.
 * The arguments it answers are validated again with the contract's schemas. `after` runs inside
 * the unit of work, on the result, so that a veto there still rolls everything back.
 */
export interface ServiceCallHooksInterface {
  before(call: ServiceCall, args: unknown[]): Promise<unknown[]>;
  after(call: ServiceCall, args: readonly unknown[], result: unknown): Promise<unknown>;
}

export const ServiceCallHooksInterface = defineContract<ServiceCallHooksInterface>(
  'Framework\\Webapi\\ServiceCallHooksInterface',
  {
    before: {
      params: [
        { name: 'call', schema: Joi.object().required() },
        { name: 'args', schema: Joi.array().required() },
      ],
    },
    after: {
      params: [
        { name: 'call', schema: Joi.object().required() },
        { name: 'args', schema: Joi.array().required() },
        { name: 'result', schema: Joi.any() },
      ],
    },
  },
);

/** A service call with what `webhooks:info` prints of it: each parameter's joi type, and what it answers. */
export interface DescribedServiceCall extends ServiceCall {
  readonly types: readonly string[];
  readonly returns?: string;
}

/**
 * The points hooks can attach to, for tools that list them (`webhooks:list:all`): every contract
 * method webapi.xml reaches, and every event an events.xml names (a module declares the events
 * it dispatches as `<event name="..."/>`, observers or not). Bound as `Framework\Webapi\HookPointList`.
 */
export interface HookPointList {
  serviceCalls(): Promise<DescribedServiceCall[]>;
  eventNames(): string[];
}
