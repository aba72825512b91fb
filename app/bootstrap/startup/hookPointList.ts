import type { ModuleDefinition } from '../../framework/module/ModuleLoader.js';
import { DI_AREAS } from '../../framework/config/Area.js';
import { readWebapiConfig } from '../../framework/config/WebapiConfig.js';
import { isContract } from '../../framework/contract/Contract.js';
import type { ClassResolver } from '../../framework/di/ClassResolver.js';
import { readEventConfig } from '../../framework/event/EventConfig.js';
import type { DescribedServiceCall, HookPointList } from '../../framework/webapi/ServiceCallHooks.js';

/** What `Framework\Webapi\HookPointList` answers: read from the files when asked, in any area. */
export function hookPointList(modules: readonly ModuleDefinition[], resolver: ClassResolver): HookPointList {
  return {
    async serviceCalls() {
      const calls = new Map<string, DescribedServiceCall>();
      for (const route of readWebapiConfig(modules)) {
        const key = `${route.serviceClass}::${route.serviceMethod}`;
        if (calls.has(key)) continue;
        const contract = await resolver.load(route.serviceClass, route.file);
        const spec = isContract(contract) ? contract.methods[route.serviceMethod] : undefined;
        const returns = typeof spec?.returns === 'string' ? spec.returns : spec?.returns?.name;
        calls.set(key, {
          serviceClass: route.serviceClass,
          method: route.serviceMethod,
          params: spec?.params.map((param) => param.name) ?? [],
          types: spec?.params.map((param) => param.schema.type ?? 'any') ?? [],
          ...(returns ? { returns } : {}),
        });
      }
      return [...calls.values()];
    },
    eventNames() {
      const names = new Set<string>();
      for (const area of ['global' as const, ...DI_AREAS]) {
        for (const name of readEventConfig(modules, area).events.keys()) names.add(name);
      }
      return [...names].sort();
    },
  };
}
