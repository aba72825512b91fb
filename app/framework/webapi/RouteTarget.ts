/**
 * What a route of webapi.xml is served by, whichever way the request comes: the front controller
 * (synchronous), the async controller (validates with its mapper, then queues) and the operation
 * consumer (replays a queued request). Built once per route (app/bootstrap/routeTarget.ts).
 */
import type { InputMapper } from './InputMapper.js';

export interface RouteTarget {
  readonly mapper: InputMapper;
  /**
   * Runs before the unit of work opens (out-of-process before hooks: ServiceCallHooks.ts) and
   * answers the arguments to call with; absent: the mapped ones.
   */
  readonly prepare?: (args: unknown[]) => Promise<unknown[]>;
  /** Calls the contract method on the (intercepted) service. */
  readonly invoke: (args: unknown[]) => Promise<unknown>;
  /** Writes run in a transaction; reads (GET) do not need one. */
  readonly transactional: boolean;
}
