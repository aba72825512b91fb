/**
 * Reads `etc/events.xml` and `etc/<area>/events.xml` in Magento's vocabulary and merges them in
 * module load order, global files first and then the area's: observers merge by name within an
 * event, a later declaration changing the attributes it sets (e.g. `disabled="true"`).
 */
import { DI_AREAS, type Area } from '../config/Area.js';
import { readModuleXmlFiles } from '../config/moduleXmlFiles.js';
import { ConfigError, checkElement, parseBooleanAttr, type XmlElement } from '../xml/xml.js';
import type { ModuleDefinition } from '../module/ModuleLoader.js';

export interface ObserverDeclaration {
  readonly name: string;
  readonly event: string;
  instance?: string;
  disabled?: boolean;
  shared?: boolean;
  /** Files that declared or changed it, for error messages. */
  readonly files: string[];
}

export class EventConfig {
  /** Event name -> observers by name, in the order first declared (module load order). */
  readonly events = new Map<string, Map<string, ObserverDeclaration>>();

  /** The enabled observers of an event, in call order. */
  observersOf(event: string): ObserverDeclaration[] {
    return [...(this.events.get(event)?.values() ?? [])].filter((observer) => !observer.disabled);
  }
}

export const EVENT_AREAS: readonly Area[] = ['global', ...DI_AREAS];

export function readEventConfig(modules: readonly ModuleDefinition[], area: Area): EventConfig {
  const config = new EventConfig();
  for (const { file, root } of readModuleXmlFiles(modules, 'events.xml', { area })) mergeEventFile(config, root, file);
  for (const observers of config.events.values()) {
    for (const observer of observers.values()) {
      if (!observer.disabled && !observer.instance) {
        throw new ConfigError(
          `${observer.files.join(', ')}: observer "${observer.name}" of event "${observer.event}" has no instance`,
        );
      }
    }
  }
  return config;
}

const EVENT_NAME = /^[a-z0-9_.]+$/i;

export function mergeEventFile(config: EventConfig, root: XmlElement, file: string): void {
  if (root.name !== 'config') throw new ConfigError(`${file}: the root element must be <config>`);
  checkElement(root, { children: ['event'] }, file, 'config');
  for (const event of root.children) {
    checkElement(event, { required: ['name'], children: ['observer'] }, file, 'event');
    // Magento lower-cases event names on dispatch and in config.
    const eventName = event.attrs.name!.toLowerCase();
    if (!EVENT_NAME.test(eventName))
      throw new ConfigError(`${file}: event name "${event.attrs.name}" may hold only letters, digits, "_" and "."`);
    let observers = config.events.get(eventName);
    if (!observers) config.events.set(eventName, (observers = new Map()));
    for (const element of event.children) {
      checkElement(element, { required: ['name'], optional: ['instance', 'disabled', 'shared'] }, file, 'observer');
      const name = element.attrs.name!;
      let observer = observers.get(name);
      if (!observer) observers.set(name, (observer = { name, event: eventName, files: [] }));
      if (!observer.files.includes(file)) observer.files.push(file);
      if (element.attrs.instance !== undefined) observer.instance = element.attrs.instance;
      const disabled = parseBooleanAttr(element.attrs.disabled, file, `disabled of observer "${name}"`);
      if (disabled !== undefined) observer.disabled = disabled;
      const shared = parseBooleanAttr(element.attrs.shared, file, `shared of observer "${name}"`);
      if (shared !== undefined) observer.shared = shared;
    }
  }
}
