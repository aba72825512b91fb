/**
 * Reads `etc/events.xml` and `etc/<area>/events.xml` in Magento's vocabulary and merges them in
 * module load order, global files first and then the area's: observers merge by name within an
 * event, a later declaration changing the attributes it sets (e.g. `disabled="true"`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DI_AREAS, type Area } from '../config/DiConfig.js';
import { ConfigError, checkElement, parseBooleanAttr, parseXmlFile, type XmlElement } from '../config/xml.js';
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

/** Files in merge order: every module's global events.xml, then every module's area events.xml. */
export function eventFiles(modules: readonly ModuleDefinition[], area: Area): string[] {
  const files = modules.map((m) => path.join(m.dir, 'etc', 'events.xml'));
  if (area !== 'global') files.push(...modules.map((m) => path.join(m.dir, 'etc', area, 'events.xml')));
  return files.filter((file) => existsSync(file));
}

export function readEventConfig(modules: readonly ModuleDefinition[], area: Area): EventConfig {
  const config = new EventConfig();
  for (const file of eventFiles(modules, area)) mergeEventFile(config, parseXmlFile(file), file);
  for (const observers of config.events.values()) {
    for (const observer of observers.values()) {
      if (!observer.disabled && !observer.instance) {
        throw new ConfigError(`${observer.files.join(', ')}: observer "${observer.name}" of event "${observer.event}" has no instance`);
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
    if (!EVENT_NAME.test(eventName)) throw new ConfigError(`${file}: event name "${event.attrs.name}" may hold only letters, digits, "_" and "."`);
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
