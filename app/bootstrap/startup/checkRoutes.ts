/**
 * Start-up phase 4, the routes: each etc/webapi.xml route is checked against its contract (the
 * method exists, a class serves it, its ACL resources are known; validateRoutes.ts) and gets the
 * contract method's spec, extended with the extension attributes of the data it takes and returns.
 */
import type { RouteDefinition } from '../../framework/config/WebapiConfig.js';
import type { MethodSpec } from '../../framework/contract/Contract.js';
import { validateRoutes } from './validateRoutes.js';
import type { Container } from './buildContainer.js';
import type { Configuration } from '../config/loadConfiguration.js';

/** Each checked route with the contract method it calls. */
export type CheckedRoutes = ReadonlyMap<RouteDefinition, MethodSpec>;

export function checkRoutes(
  { webapiRoutes, acl, logger }: Pick<Configuration, 'webapiRoutes' | 'acl' | 'logger'>,
  { resolver, objectManager, extensionAttributes }: Container,
): Map<RouteDefinition, MethodSpec> {
  const specs = validateRoutes(webapiRoutes, resolver, objectManager, acl, logger);
  for (const [route, spec] of specs) {
    specs.set(route, extensionAttributes.extendSpec(spec, `${route.file}: route ${route.method} ${route.url}`));
  }
  return specs;
}
