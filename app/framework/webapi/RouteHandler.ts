/**
 * One handler per webapi.xml route, built once at start-up (as NestJS's
 * RouterExecutionContext.create builds a route's handler): the steps of a call in one place, for
 * the synchronous route (SynchronousRequestProcessor.ts), the async web API as it accepts an
 * operation (webapi-async/AsynchronousRequestProcessor.ts) and the operation consumer as it
 * replays one (webapi-async/OperationConsumer.ts):
 *
 *   accept   input -> the contract's arguments (InputMapper), validated; each step's accept()
 *   prepare  each step's before() (the ServiceCallHooks first), outside the unit of work
 *   invoke   the contract method on the intercepted service, each step's after(), extension
 *            attributes hidden from callers without their resources; in the caller's unit of work
 *   output   the answer's keys in snake_case
 *
 * The synchronous route runs them all (`accept`, then `execute`); the async accept path `accept`
 * alone; the consumer `prepare`, `invoke` (in its own unit of work, beside the operation's row) and
 * `output`. Steps modules add (RouteStep.ts) run in each path through these.
 */
import type { RouteDefinition } from '../config/WebapiConfig.js';
import { requestContext } from '../context/RequestContext.js';
import type { MethodSpec } from '../contract/Contract.js';
import { translateDatabaseError, type UnitOfWork } from '../db/UnitOfWork.js';
import { dataInterfaceName, type ExtensionAttributesProcessor } from '../extension/ExtensionAttributes.js';
import { InputMapper, type InputSources } from './InputMapper.js';
import { snakeCaseKeys } from './naming.js';
import { ROUTE_STEP_LIST, type RouteCall, type RouteStep, type RouteStepList } from './RouteStep.js';
import { ServiceCallHooksInterface, type ServiceCall } from './ServiceCallHooks.js';

/** Where services are looked up (the object manager). */
export interface ServiceLocator {
  isBound(name: string): boolean;
  get<T>(name: string): T;
}

/** What route handlers are made of; an Application has all three. */
export interface RouteHandlerSources {
  /** Each validated route with the contract method it calls. */
  readonly routes: ReadonlyMap<RouteDefinition, MethodSpec>;
  readonly objectManager: ServiceLocator;
  readonly extensionAttributes: ExtensionAttributesProcessor;
}

type Service = Record<string, (...args: unknown[]) => Promise<unknown>>;

export class RouteHandler {
  readonly call: RouteCall;
  readonly mapper: InputMapper;
  /** Writes run in a transaction; reads (GET) do not need one, unless the contract method says. */
  readonly transactional: boolean;
  private readonly returns: string | undefined;
  private readonly filter: boolean;
  /** Asked for on the first call: the container builds the (intercepted) service then, not at start-up. */
  private service?: Service;

  constructor(
    readonly route: RouteDefinition,
    spec: MethodSpec,
    private readonly objectManager: ServiceLocator,
    private readonly extensionAttributes: ExtensionAttributesProcessor,
    /** The steps, in order; looked up on the first call (the container builds them then). */
    private readonly steps: () => readonly RouteStep[],
  ) {
    this.call = {
      route,
      serviceClass: route.serviceClass,
      method: route.serviceMethod,
      params: spec.params.map((param) => param.name),
    };
    this.mapper = new InputMapper(spec, route.data);
    this.transactional = spec.transactional ?? route.method !== 'GET';
    this.returns = dataInterfaceName(spec.returns);
    this.filter = extensionAttributes.needsFiltering(this.returns);
  }

  /** The request's input as the contract's arguments, validated, then accepted by every step. */
  accept(input: InputSources): unknown[] {
    const args = this.mapper.map(input);
    for (const step of this.steps()) step.accept?.(this.call, args);
    return args;
  }

  /** Every step's before(), outside the unit of work; what a step changes is checked as the request was. */
  async prepare(args: unknown[]): Promise<unknown[]> {
    for (const step of this.steps()) {
      if (!step.before) continue;
      const changed = await step.before(this.call, args);
      // A step gets no way around the contract's schemas.
      args = changed === args ? args : this.mapper.revalidate(changed);
    }
    return args;
  }

  /** The contract method on the (intercepted) service, then every step's after(); in the caller's unit of work. */
  async invoke(args: readonly unknown[]): Promise<unknown> {
    this.service ??= this.objectManager.get<Service>(this.route.serviceClass);
    let result = await this.service[this.route.serviceMethod]!(...args);
    for (const step of this.steps()) if (step.after) result = await step.after(this.call, args, result);
    // Extension attributes with <resources> are hidden from callers that lack them.
    if (this.filter)
      this.extensionAttributes.filterOutput(
        result,
        this.returns!,
        (resource) => requestContext.caller().allows?.(resource) === true,
      );
    return result;
  }

  /** The answer's shape: snake_case keys. */
  output(result: unknown): unknown {
    return snakeCaseKeys(result);
  }

  /**
   * The call of the synchronous route, once its input is accepted: prepare, then invoke in a unit
   * of work (`committed` told once it commits) or, for a read, as is.
   */
  async execute(args: unknown[], unitOfWork: UnitOfWork, committed?: () => void): Promise<unknown> {
    const prepared = await this.prepare(args);
    if (!this.transactional)
      return this.invoke(prepared).catch((error: unknown) => {
        throw translateDatabaseError(error);
      });
    const result = await unitOfWork.run(() => this.invoke(prepared));
    committed?.();
    return result;
  }
}

/**
 * The steps of an application's routes: the ServiceCallHooks a module serves (none: nothing runs),
 * then those of `Framework\Webapi\RouteStepList`. Looked up on the first call of any route.
 */
export function routeSteps(objectManager: ServiceLocator): () => readonly RouteStep[] {
  let steps: readonly RouteStep[] | undefined;
  return () => {
    if (steps) return steps;
    const hooks = objectManager.isBound(ServiceCallHooksInterface.name)
      ? objectManager.get<ServiceCallHooksInterface>(ServiceCallHooksInterface.name)
      : null;
    const listed = objectManager.isBound(ROUTE_STEP_LIST)
      ? Object.values(objectManager.get<RouteStepList>(ROUTE_STEP_LIST).steps)
      : [];
    return (steps = [...(hooks ? [serviceCallHooksStep(hooks)] : []), ...listed]);
  };
}

/** The ServiceCallHooks as a step: the hooks see the contract method, not the route. */
function serviceCallHooksStep(hooks: ServiceCallHooksInterface): RouteStep {
  const calls = new WeakMap<RouteCall, ServiceCall>();
  const serviceCall = (call: RouteCall): ServiceCall => {
    let found = calls.get(call);
    if (!found)
      calls.set(call, (found = { serviceClass: call.serviceClass, method: call.method, params: call.params }));
    return found;
  };
  return {
    before: (call, args) => hooks.before(serviceCall(call), args),
    after: (call, args, result) => hooks.after(serviceCall(call), args, result),
  };
}

/** Every route's handler, built once, sharing one list of steps. */
export function buildRouteHandlers(sources: RouteHandlerSources): ReadonlyMap<RouteDefinition, RouteHandler> {
  const steps = routeSteps(sources.objectManager);
  const handlers = new Map<RouteDefinition, RouteHandler>();
  for (const [route, spec] of sources.routes)
    handlers.set(route, new RouteHandler(route, spec, sources.objectManager, sources.extensionAttributes, steps));
  return handlers;
}
