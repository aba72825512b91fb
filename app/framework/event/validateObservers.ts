import { ConfigError } from '../xml/xml.js';
import type { ClassResolver } from '../di/ClassResolver.js';
import type { EventConfig } from './EventConfig.js';

/** Every observer instance is a class with an execute(observer) method. */
export function validateObservers(events: EventConfig, resolver: ClassResolver): void {
  for (const observers of events.events.values()) {
    for (const observer of observers.values()) {
      if (!observer.instance) continue;
      const value = resolver.get(observer.instance) as { prototype?: { execute?: unknown } } | undefined;
      if (
        typeof value !== 'function' ||
        typeof (value as { prototype?: { execute?: unknown } }).prototype?.execute !== 'function'
      ) {
        throw new ConfigError(
          `${observer.files.join(', ')}: observer "${observer.name}" of event "${observer.event}": ${observer.instance} is not a class with an execute(observer) method`,
        );
      }
    }
  }
}
