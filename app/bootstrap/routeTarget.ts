/**
 * The route target: what a route calls (its input mapper, whether it runs in the unit of work, and
 * the call of the contract method on the intercepted service), for the front controller, the async
 * web API and the bulk operation consumers alike.
 */
import type { RouteDefinition } from '../framework/config/WebapiConfig.js';
import type { MethodSpec } from '../framework/contract/Contract.js';
import { requestContext } from '../framework/context/RequestContext.js';
import type { ObjectManager } from '../framework/di/ObjectManager.js';
import { dataInterfaceName, type ExtensionAttributesProcessor } from '../framework/extension/ExtensionAttributes.js';
import type { RouteTarget } from '../framework/webapi/RouteTarget.js';
import { InputMapper } from '../framework/webapi/InputMapper.js';
import { ServiceCallHooksInterface, type ServiceCall } from '../framework/webapi/ServiceCallHooks.js';

/** What a route target is made of; an Application has all three. */
export interface RouteTargetSources {
  /** Each validated route with the contract method it calls. */
  readonly routes: ReadonlyMap<RouteDefinition, MethodSpec>;
  readonly objectManager: ObjectManager;
  readonly extensionAttributes: ExtensionAttributesProcessor;
}

type Service = Record<string, (...args: unknown[]) => Promise<unknown>>;

export function createRouteTarget(
  { routes, objectManager, extensionAttributes }: RouteTargetSources,
  route: RouteDefinition,
): RouteTarget {
  const spec = routes.get(route);
  if (!spec) throw new Error(`Unknown route ${route.method} ${route.url}`);
  const method = route.serviceMethod;
  const returns = dataInterfaceName(spec.returns);
  const filter = extensionAttributes.needsFiltering(returns);
  // Asked for on the first call: the container builds the (intercepted) service then, not at start-up.
  let service: Service | undefined;
  // A module may serve hooks around every call (ServiceCallHooks.ts): looked up on the first call.
  let hooks: ServiceCallHooksInterface | null | undefined;
  const hooksOf = () =>
    (hooks ??= objectManager.isBound(ServiceCallHooksInterface.name)
      ? objectManager.get<ServiceCallHooksInterface>(ServiceCallHooksInterface.name)
      : null);
  const call: ServiceCall = {
    serviceClass: route.serviceClass,
    method,
    params: spec.params.map((param) => param.name),
  };
  const mapper = new InputMapper(spec, route.data);
  return {
    mapper,
    transactional: spec.transactional ?? route.method !== 'GET',
    prepare: async (args) => {
      const hooked = hooksOf();
      if (!hooked) return args;
      const changed = await hooked.before(call, args);
      // What a hook answers is checked as the request was: it gets no way around the contract's schemas.
      return changed === args ? args : mapper.revalidate(changed);
    },
    invoke: async (args) => {
      service ??= objectManager.get<Service>(route.serviceClass);
      let result = await service[method]!(...args);
      const hooked = hooksOf();
      if (hooked) result = await hooked.after(call, args, result);
      // Extension attributes with <resources> are hidden from callers that lack them.
      if (filter)
        extensionAttributes.filterOutput(
          result,
          returns!,
          (resource) => requestContext.caller().allows?.(resource) === true,
        );
      return result;
    },
  };
}
