/** Reads `etc/acl.xml`: the resource tree, flattened to ids and titles. */
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { checkElement, type XmlElement } from '../xml/xml.js';
import { readModuleXmlFiles } from './moduleXmlFiles.js';

export interface AclResource {
  readonly id: string;
  readonly title: string;
  readonly parent: string | null;
  readonly module: string;
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
            { required: ['id'], optional: ['title', 'sortOrder', 'translate', 'disabled'], children: ['resource'] },
            file,
            'resource',
          );
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
