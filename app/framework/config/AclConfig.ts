/** Reads `etc/acl.xml`: the resource tree, flattened to ids and titles. */
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { checkElement, ConfigError, type XmlElement } from '../xml/xml.js';
import { readModuleXmlFiles } from './moduleXmlFiles.js';

export interface AclResource {
  readonly id: string;
  readonly title: string;
  readonly parent: string | null;
  readonly module: string;
  /**
   * `global` (acl.xml `<resource ... scope="global">`): only a caller of every store may hold
   * this resource and every resource below it, whatever a store-bound token was granted (as
   * Magento's admin-only resources, e.g. its webhook and eventing ones, are only an admin's).
   */
  readonly scope?: 'global';
}

/** Whether the resource, or one above it, is `scope="global"`: a store-bound caller never holds it. */
export function needsGlobalCaller(
  acl: ReadonlyMap<string, Pick<AclResource, 'parent' | 'scope'>>,
  resource: string,
): boolean {
  for (let current: string | null = resource; current; current = acl.get(current)?.parent ?? null) {
    if (acl.get(current)?.scope === 'global') return true;
  }
  return false;
}

export function readAclConfig(modules: readonly ModuleDefinition[]): Map<string, AclResource> {
  const resources = new Map<string, AclResource>();
  for (const { module, file, root } of readModuleXmlFiles(modules, 'acl.xml', { root: 'config' })) {
    checkElement(root, { children: ['acl'] }, file);
    for (const acl of root.children) {
      checkElement(acl, { children: ['resources'] }, file, 'acl');
      for (const list of acl.children) {
        checkElement(list, { children: ['resource'] }, file, 'resources');
        const walk = (element: XmlElement, parent: string | null): void => {
          checkElement(
            element,
            {
              required: ['id'],
              optional: ['title', 'sortOrder', 'translate', 'disabled', 'scope'],
              children: ['resource'],
            },
            file,
            'resource',
          );
          const id = element.attrs.id!;
          const existing = resources.get(id);
          const scope = element.attrs.scope;
          if (scope !== undefined && scope !== 'global')
            throw new ConfigError(`${file}: resource ${id} has an unknown scope "${scope}" (only "global")`);
          // A later file may make a resource global; none can make it store-wide again.
          const global = scope === 'global' || existing?.scope === 'global';
          resources.set(id, {
            id,
            title: element.attrs.title ?? existing?.title ?? id,
            parent: existing?.parent ?? parent,
            module: existing?.module ?? module.name,
            ...(global ? { scope: 'global' as const } : {}),
          });
          for (const child of element.children) walk(child, id);
        };
        for (const resource of list.children) walk(resource, null);
      }
    }
  }
  return resources;
}
