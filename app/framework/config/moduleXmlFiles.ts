/**
 * Where the modules' configuration of one kind lives, and in which order it merges, for every
 * reader of an `etc/*.xml` (di.xml, events.xml, webapi.xml, acl.xml, extension_attributes.xml, and
 * a module's own such as webhooks.xml): every module's global `etc/<name>` in module load order,
 * then, for an area, every module's `etc/<area>/<name>`, as Magento's config FileResolver answers
 * them. Files a module does not have are skipped; each reader only merges what it is given.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { ConfigError, parseXmlFile, type XmlElement } from '../xml/xml.js';
import type { Area } from './Area.js';

export interface ModuleXmlPath {
  readonly module: ModuleDefinition;
  readonly file: string;
}

export interface ModuleXmlFile extends ModuleXmlPath {
  readonly root: XmlElement;
}

/** One module's `etc/<name>` (global) or `etc/<area>/<name>`, when it has one. */
export function moduleXmlFile(module: ModuleDefinition, name: string, area: Area = 'global'): string | undefined {
  const file = area === 'global' ? path.join(module.dir, 'etc', name) : path.join(module.dir, 'etc', area, name);
  return existsSync(file) ? file : undefined;
}

/** The files named `name` in merge order: every module's global one, then (for an area) every module's area one. */
export function moduleXmlPaths(
  modules: readonly ModuleDefinition[],
  name: string,
  area: Area = 'global',
): ModuleXmlPath[] {
  const areas: Area[] = area === 'global' ? ['global'] : ['global', area];
  const found: ModuleXmlPath[] = [];
  for (const each of areas) {
    for (const module of modules) {
      const file = moduleXmlFile(module, name, each);
      if (file) found.push({ module, file });
    }
  }
  return found;
}

/**
 * The same files, each parsed when the reader comes to it (so a broken file is reported where the
 * merge reaches it). With `root`, a file whose root element is another is a ConfigError naming it.
 */
export function* readModuleXmlFiles(
  modules: readonly ModuleDefinition[],
  name: string,
  options: { readonly area?: Area; readonly root?: string } = {},
): Generator<ModuleXmlFile, void, undefined> {
  for (const { module, file } of moduleXmlPaths(modules, name, options.area)) {
    const root = parseXmlFile(file);
    if (options.root !== undefined && root.name !== options.root) {
      throw new ConfigError(`${file}: the root element must be <${options.root}>`);
    }
    yield { module, file, root };
  }
}
