/** Reads `etc/acl.xml`: the resource tree, flattened to ids and titles. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { ConfigError, checkElement, parseXmlFile, type XmlElement } from './xml.js';

export interface AclResource {
  readonly id: string;
  readonly title: string;
  readonly parent: string | null;
  readonly module: string;
}

export function readAclConfig(modules: readonly ModuleDefinition[]): Map<string, AclResource> {
  const resources = new Map<string, AclResource>();
  for (const module of modules) {
    const file = path.join(module.dir, 'etc', 'acl.xml');
    if (!existsSync(file)) continue;
    const root = parseXmlFile(file);
    if (root.name !== 'config') throw new ConfigError(`${file}: the root element must be <config>`);
    checkElement(root, { children: ['acl'] }, file);
    for (const acl of root.children) {
      checkElement(acl, { children: ['resources'] }, file, 'acl');
      for (const list of acl.children) {
        checkElement(list, { children: ['resource'] }, file, 'resources');
        const walk = (element: XmlElement, parent: string | null): void => {
          checkElement(element, { required: ['id'], optional: ['title', 'sortOrder', 'translate', 'disabled'], children: ['resource'] }, file, 'resource');
          const id = element.attrs.id!;
          const existing = resources.get(id);
          resources.set(id, {
            id,
            title: element.attrs.title ?? existing?.title ?? id,
            parent: existing?.parent ?? parent,
            module: existing?.module ?? module.name,
          });
          for (const child of element.children) walk(child, id);
        };
        for (const resource of list.children) walk(resource, null);
      }
    }
  }
  return resources;
}
