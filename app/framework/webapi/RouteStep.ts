/**
 * A step of every call of a webapi.xml route, whichever way the call comes (issue 28): the
 * synchronous route, the async web API as it accepts an operation, and the operation consumer as
 * it replays one. Each route's RouteHandler (RouteHandler.ts) runs the steps, so a step added once
 * holds on all three. A module adds one through di.xml, in the global area (etc/di.xml) so that the
 * consumer, a CLI process, runs it too:
 *
 *   <type name="Framework\Webapi\RouteStepList"><arguments>
 *     <argument name="steps" xsi:type="array">
 *       <item name="acme_audit" xsi:type="object">Acme\Audit\Model\AuditStep</item>
 *     </argument></arguments></type>
 *
 * The runtime's own step, first of all: the ServiceCallHooks (ServiceCallHooks.ts) a module serves.
 */
import type { RouteDefinition } from '../config/WebapiConfig.js';
import type { ServiceCall } from './ServiceCallHooks.js';

/** The route a step runs for, and the contract method it calls. */
export interface RouteCall extends ServiceCall {
  readonly route: RouteDefinition;
}

export interface RouteStep {
  /**
   * Once the input is mapped onto the contract's arguments and validated, before anything runs:
   * on the synchronous route, and on the async web API for each operation before it is queued
   * (not again when the consumer replays it). Synchronous; throws to refuse the call (an
   * InputException answers 400; on a bulk, each refused element is named).
   */
  accept?(call: RouteCall, args: readonly unknown[]): void;
  /**
   * Before the unit of work opens, holding no connection: on the synchronous route and in the
   * consumer for each operation. Answers the arguments to call with; changed ones are validated
   * again with the contract's schemas.
   */
  before?(call: RouteCall, args: unknown[]): Promise<unknown[]>;
  /** Inside the unit of work, on the contract call's result (so a throw rolls it back): synchronous route and consumer. */
  after?(call: RouteCall, args: readonly unknown[], result: unknown): Promise<unknown>;
}

/** The steps modules add through di.xml, in the merged item order, after the runtime's. */
export class RouteStepList {
  constructor(readonly steps: Readonly<Record<string, RouteStep>> = {}) {}
}

export const ROUTE_STEP_LIST = 'Framework\\Webapi\\RouteStepList';
