/**
 * Reads `etc/extension_attributes.xml` in Magento's vocabulary, merged in module load order: an
 * attribute is keyed by its data interface and code, and a later module may change its type or
 * resources. `<join>` (Magento's SQL joins for collections) is not supported: an error says so.
 */
import { ConfigError, checkElement } from '../xml/xml.js';
import { readModuleXmlFiles } from '../config/moduleXmlFiles.js';
import type { ModuleDefinition } from '../module/ModuleLoader.js';

export const SCALAR_TYPES = ['string', 'int', 'float', 'boolean'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** Magento's spellings of the scalar types, folded to one. */
const SCALAR_ALIASES: Record<string, ScalarType> = {
  string: 'string',
  int: 'int',
  integer: 'int',
  float: 'float',
  double: 'float',
  bool: 'boolean',
  boolean: 'boolean',
};

export interface ExtensionAttribute {
  readonly code: string;
  /** The data interface it extends. */
  readonly for: string;
  /** A scalar type, or a data interface name. */
  type: string;
  readonly scalar: boolean;
  readonly list: boolean;
  /** Callers need every one of these ACL resources to see the attribute. */
  resources: readonly string[];
  readonly files: string[];
}

export class ExtensionAttributesConfig {
  /** Data interface name -> attributes by code, in declaration order. */
  readonly byInterface = new Map<string, Map<string, ExtensionAttribute>>();

  attributesOf(name: string): readonly ExtensionAttribute[] {
    return [...(this.byInterface.get(name)?.values() ?? [])];
  }

  /** Every name the config mentions that must resolve to a data interface, with the file that names it. */
  referencedNames(): Map<string, string> {
    const names = new Map<string, string>();
    for (const [forName, attributes] of this.byInterface) {
      for (const attribute of attributes.values()) {
        if (!names.has(forName)) names.set(forName, attribute.files[0]!);
        if (!attribute.scalar && !names.has(attribute.type))
          names.set(attribute.type, attribute.files[attribute.files.length - 1]!);
      }
    }
    return names;
  }
}

const CODE = /^[a-z][a-z0-9_]*$/;

export function readExtensionAttributesConfig(modules: readonly ModuleDefinition[]): ExtensionAttributesConfig {
  const config = new ExtensionAttributesConfig();
  for (const { file, root } of readModuleXmlFiles(modules, 'extension_attributes.xml', { root: 'config' })) {
    checkElement(root, { children: ['extension_attributes'] }, file, 'config');
    for (const group of root.children) {
      checkElement(group, { required: ['for'], children: ['attribute'] }, file, 'extension_attributes');
      const forName = group.attrs.for!.replace(/^\\/, '');
      let attributes = config.byInterface.get(forName);
      if (!attributes) config.byInterface.set(forName, (attributes = new Map()));
      for (const element of group.children) {
        checkElement(element, { required: ['code', 'type'], children: ['resources'] }, file, 'attribute');
        const code = element.attrs.code!;
        if (!CODE.test(code))
          throw new ConfigError(`${file}: extension attribute code "${code}" must be snake_case (a-z, 0-9, _)`);
        const rawType = element.attrs.type!.replace(/^\\/, '');
        const list = rawType.endsWith('[]');
        const base = list ? rawType.slice(0, -2) : rawType;
        const scalar = SCALAR_ALIASES[base.toLowerCase()];
        const resources: string[] = [];
        for (const child of element.children) {
          checkElement(child, { children: ['resource'] }, file, 'resources');
          for (const resource of child.children) {
            checkElement(resource, { required: ['ref'] }, file, 'resource');
            resources.push(resource.attrs.ref!);
          }
        }
        const previous = attributes.get(code);
        const attribute: ExtensionAttribute = {
          code,
          for: forName,
          type: scalar ?? base,
          scalar: scalar !== undefined,
          list,
          resources: resources.length || !previous ? resources : previous.resources,
          files: [...(previous?.files ?? []), file],
        };
        attributes.set(code, attribute);
      }
    }
  }
  return config;
}
