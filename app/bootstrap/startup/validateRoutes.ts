import type { AclResource } from '../../framework/config/AclConfig.js';
import type { RouteDefinition } from '../../framework/config/WebapiConfig.js';
import { ConfigError } from '../../framework/xml/xml.js';
import { isContract, type MethodSpec } from '../../framework/contract/Contract.js';
import type { ClassResolver } from '../../framework/di/ClassResolver.js';
import type { ObjectManager } from '../../framework/di/ObjectManager.js';
import type { Logger } from '../../framework/logging/logger.js';

/** Routes point at contracts whose methods exist and that a class serves; resources are known. */
export function validateRoutes(
  routes: readonly RouteDefinition[],
  resolver: ClassResolver,
  objectManager: ObjectManager,
  acl: ReadonlyMap<string, AclResource>,
  logger: Logger,
): Map<RouteDefinition, MethodSpec> {
  const specs = new Map<RouteDefinition, MethodSpec>();
  for (const route of routes) {
    const where = `${route.file}: route ${route.method} ${route.url}`;
    const value = resolver.get(route.serviceClass);
    if (!isContract(value)) {
      throw new ConfigError(
        `${where}: service class ${route.serviceClass} is not a contract (routes name interfaces defined with defineContract)`,
      );
    }
    const spec = value.methods[route.serviceMethod];
    if (!spec) {
      throw new ConfigError(
        `${where}: contract ${route.serviceClass} has no method "${route.serviceMethod}" (it has ${Object.keys(value.methods).join(', ')})`,
      );
    }
    if (!objectManager.isBound(route.serviceClass)) {
      throw new ConfigError(
        `${where}: no class serves ${route.serviceClass}; declare a <preference> for it in a di.xml`,
      );
    }
    // The class built for it: a <preference> may name a virtual type, which builds the class it varies.
    const className = objectManager.className(route.serviceClass);
    const concrete = resolver.get(className) as { prototype?: Record<string, unknown> } | undefined;
    if (typeof concrete?.prototype?.[route.serviceMethod] !== 'function') {
      const served = objectManager.concreteName(route.serviceClass);
      throw new ConfigError(
        `${where}: ${served}${served !== className ? ` (a virtualType of ${className})` : ''} does not implement ${route.serviceMethod}()`,
      );
    }
    for (const resource of route.resources) {
      if (resource !== 'anonymous' && resource !== 'self' && !acl.has(resource)) {
        logger.warn(`${where}: resource ${resource} is not declared in any etc/acl.xml`);
      }
    }
    specs.set(route, spec);
  }
  return specs;
}
