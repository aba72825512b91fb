/**
 * Class preloading: every class name the configuration mentions (di.xml, webapi.xml, events.xml,
 * the runtime's own names, and whatever those classes @inject by name) is imported at start-up,
 * so a name that does not resolve fails the boot, not the first request.
 */
import type { DiConfig } from '../../framework/config/DiConfig.js';
import type { RouteDefinition } from '../../framework/config/WebapiConfig.js';
import type { ClassResolver } from '../../framework/di/ClassResolver.js';
import { injectionPoints } from '../../framework/di/constructorParameters.js';
import { ObjectManager } from '../../framework/di/ObjectManager.js';
import type { EventConfig } from '../../framework/event/EventConfig.js';

/** Each referenced name with the file that names it (for error messages). */
export function referencedNames(
  diConfig: DiConfig,
  routes: readonly RouteDefinition[],
  events: EventConfig,
  runtimeNames: Iterable<string>,
): Map<string, string> {
  const names = ObjectManager.referencedNames(diConfig);
  for (const route of routes) if (!names.has(route.serviceClass)) names.set(route.serviceClass, route.file);
  for (const name of runtimeNames) if (!names.has(name)) names.set(name, 'the runtime');
  for (const observers of events.events.values()) {
    for (const observer of observers.values()) {
      if (observer.instance && !names.has(observer.instance))
        names.set(observer.instance, observer.files[observer.files.length - 1]!);
    }
  }
  return names;
}

/** Loads every name in `names`, adding the names their constructors @inject (so `names` grows). */
export async function preloadClasses(
  names: Map<string, string>,
  resolver: ClassResolver,
  diConfig: DiConfig,
  instances: ReadonlyMap<string, unknown>,
): Promise<void> {
  const pending = [...names];
  for (let next = pending.shift(); next; next = pending.shift()) {
    const [name, file] = next;
    if (name.includes('::')) {
      await resolver.loadConstant(name, file); // di.xml xsi:type="const" (or an init_parameter named by one)
      continue;
    }
    // A virtualType is only a name in di.xml; the class it varies is loaded under its own name.
    if (diConfig.types.get(name)?.virtualOf) continue;
    const value = await resolver.load(name, file);
    if (typeof value !== 'function') continue;
    // A class may @inject another class by name that no di.xml mentions: load it too, so it
    // can be built and a name that does not resolve fails now, not on the first request.
    for (const point of injectionPoints(value)) {
      const id = point?.serviceId;
      if (typeof id !== 'string' || names.has(id) || instances.has(id) || point!.optional) continue;
      names.set(id, `${file}: ${name} (@inject in its constructor)`);
      pending.push([id, names.get(id)!]);
    }
  }
}
