/**
 * Reads `etc/di.xml` (and `etc/<area>/di.xml`) in Magento's vocabulary and merges them in module
 * load order, global files first and then the area's: a later declaration of the same preference,
 * argument or plugin name wins, attribute by attribute for plugins.
 */
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { ConfigError, checkElement, parseBooleanAttr, type XmlElement } from '../xml/xml.js';
import type { Area } from './Area.js';
import { readModuleXmlFiles } from './moduleXmlFiles.js';

export type ArgumentValue =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'null' }
  | { readonly kind: 'object'; readonly type: string; readonly file: string; readonly shared?: boolean }
  | { readonly kind: 'array'; readonly items: ReadonlyMap<string, ArgumentValue> }
  /** `Vendor\Module\Path\Name::CONSTANT`: an exported constant of that file, or a static property of the class. */
  | { readonly kind: 'const'; readonly ref: string; readonly file: string }
  /** A deployment setting (DeploymentConfig) by name, or by a const reference whose value is the name. */
  | { readonly kind: 'init_parameter'; readonly ref: string; readonly file: string };

export interface PluginDeclaration {
  readonly name: string;
  type?: string;
  sortOrder?: number;
  disabled?: boolean;
  /** The type or contract the plugin is declared on. */
  readonly target: string;
  /** Files that declared or changed it, for error messages. */
  readonly files: string[];
  /** Position of its first declaration, for stable ordering of equal sortOrders. */
  readonly position: number;
}

export interface TypeConfig {
  readonly name: string;
  shared?: boolean;
  readonly arguments: Map<string, ArgumentValue>;
  readonly plugins: Map<string, PluginDeclaration>;
  /** For a virtualType: the real type it varies. */
  virtualOf?: string;
  readonly files: string[];
}

export interface Preference {
  readonly type: string;
  readonly file: string;
}

export class DiConfig {
  readonly preferences = new Map<string, Preference>();
  readonly types = new Map<string, TypeConfig>();
  private pluginCount = 0;

  typeConfig(name: string, file: string): TypeConfig {
    let config = this.types.get(name);
    if (!config) {
      config = { name, arguments: new Map(), plugins: new Map(), files: [] };
      this.types.set(name, config);
    }
    if (!config.files.includes(file)) config.files.push(file);
    return config;
  }

  nextPluginPosition(): number {
    return this.pluginCount++;
  }

  /** Every plugin declared on `target` that is not disabled. */
  pluginsOn(target: string): PluginDeclaration[] {
    return [...(this.types.get(target)?.plugins.values() ?? [])].filter((p) => !p.disabled);
  }
}

export function readDiConfig(modules: readonly ModuleDefinition[], area: Area): DiConfig {
  const config = new DiConfig();
  for (const { file, root } of readModuleXmlFiles(modules, 'di.xml', { area })) mergeDiFile(config, root, file);
  return config;
}

export function mergeDiFile(config: DiConfig, root: XmlElement, file: string): void {
  if (root.name !== 'config') throw new ConfigError(`${file}: the root element must be <config>`);
  checkElement(root, { children: ['preference', 'type', 'virtualType'] }, file);
  for (const element of root.children) {
    if (element.name === 'preference') {
      checkElement(element, { required: ['for', 'type'] }, file, 'preference');
      config.preferences.set(element.attrs.for!, { type: element.attrs.type!, file });
    } else if (element.name === 'type') {
      checkElement(
        element,
        { required: ['name'], optional: ['shared'], children: ['arguments', 'plugin'] },
        file,
        'type',
      );
      const type = config.typeConfig(element.attrs.name!, file);
      mergeTypeBody(config, type, element, file);
    } else {
      checkElement(
        element,
        { required: ['name', 'type'], optional: ['shared'], children: ['arguments', 'plugin'] },
        file,
        'virtualType',
      );
      const type = config.typeConfig(element.attrs.name!, file);
      type.virtualOf = element.attrs.type!;
      mergeTypeBody(config, type, element, file);
    }
  }
}

function mergeTypeBody(config: DiConfig, type: TypeConfig, element: XmlElement, file: string): void {
  const shared = parseBooleanAttr(element.attrs.shared, file, `shared of ${type.name}`);
  if (shared !== undefined) type.shared = shared;
  for (const child of element.children) {
    if (child.name === 'arguments') {
      checkElement(child, { children: ['argument'] }, file, 'arguments');
      for (const argument of child.children) {
        checkElement(
          argument,
          { required: ['name', 'xsi:type'], optional: ['shared', 'translate'], children: ['item'], text: true },
          file,
          'argument',
        );
        const name = argument.attrs.name!;
        type.arguments.set(
          name,
          mergeArgument(type.arguments.get(name), readArgument(argument, file, `${type.name} argument "${name}"`)),
        );
      }
    } else {
      checkElement(child, { required: ['name'], optional: ['type', 'sortOrder', 'disabled'] }, file, 'plugin');
      const name = child.attrs.name!;
      let plugin = type.plugins.get(name);
      if (!plugin) {
        plugin = { name, target: type.name, files: [], position: config.nextPluginPosition() };
        type.plugins.set(name, plugin);
      }
      plugin.files.push(file);
      if (child.attrs.type !== undefined) plugin.type = child.attrs.type;
      if (child.attrs.sortOrder !== undefined) {
        const sortOrder = Number(child.attrs.sortOrder);
        if (!Number.isInteger(sortOrder)) {
          throw new ConfigError(
            `${file}: sortOrder of plugin "${name}" must be an integer, not "${child.attrs.sortOrder}"`,
          );
        }
        plugin.sortOrder = sortOrder;
      }
      const disabled = parseBooleanAttr(child.attrs.disabled, file, `disabled of plugin "${name}"`);
      if (disabled !== undefined) plugin.disabled = disabled;
    }
  }
}

function readArgument(element: XmlElement, file: string, what: string): ArgumentValue {
  const type = element.attrs['xsi:type'];
  const text = element.text;
  const noItems = () => {
    if (element.children.length)
      throw new ConfigError(`${file}: ${what} of xsi:type "${type}" cannot have <item> children`);
  };
  switch (type) {
    case 'string':
      noItems();
      return { kind: 'string', value: text };
    case 'number': {
      noItems();
      const value = Number(text);
      if (text === '' || !Number.isFinite(value)) throw new ConfigError(`${file}: ${what} is not a number: "${text}"`);
      return { kind: 'number', value };
    }
    case 'boolean': {
      noItems();
      const value = parseBooleanAttr(text, file, what);
      if (value === undefined) throw new ConfigError(`${file}: ${what} needs true or false`);
      return { kind: 'boolean', value };
    }
    case 'null':
      noItems();
      return { kind: 'null' };
    case 'object': {
      noItems();
      if (!text) throw new ConfigError(`${file}: ${what} of xsi:type "object" needs a class name`);
      const shared = parseBooleanAttr(element.attrs.shared, file, `shared of ${what}`);
      return shared === undefined ? { kind: 'object', type: text, file } : { kind: 'object', type: text, file, shared };
    }
    case 'const':
      noItems();
      if (!/^\\?[A-Za-z_]\w*(\\[A-Za-z_]\w*){2,}::[A-Za-z_$][\w$]*$/.test(text)) {
        throw new ConfigError(
          `${file}: ${what} of xsi:type "const" must read Vendor\\Module\\Path\\Name::CONSTANT, not "${text}"`,
        );
      }
      return { kind: 'const', ref: text, file };
    case 'init_parameter':
      noItems();
      if (!text) throw new ConfigError(`${file}: ${what} of xsi:type "init_parameter" needs a deployment setting name`);
      return { kind: 'init_parameter', ref: text, file };
    case 'array': {
      if (text) throw new ConfigError(`${file}: ${what} of xsi:type "array" takes <item> children, not text`);
      const items = new Map<string, ArgumentValue>();
      for (const item of element.children) {
        checkElement(
          item,
          {
            required: ['name', 'xsi:type'],
            optional: ['shared', 'translate', 'sortOrder'],
            children: ['item'],
            text: true,
          },
          file,
          'item',
        );
        const name = item.attrs.name!;
        items.set(name, mergeArgument(items.get(name), readArgument(item, file, `${what} item "${name}"`)));
      }
      return { kind: 'array', items };
    }
    default:
      throw new ConfigError(
        `${file}: ${what} has an unknown xsi:type "${type}" (string, number, boolean, null, object, array, const or init_parameter)`,
      );
  }
}

/** Arrays merge item by item, as Magento's config merger does; anything else is replaced. */
export function mergeArgument(previous: ArgumentValue | undefined, next: ArgumentValue): ArgumentValue {
  if (previous?.kind === 'array' && next.kind === 'array') {
    const items = new Map(previous.items);
    for (const [name, value] of next.items) items.set(name, mergeArgument(items.get(name), value));
    return { kind: 'array', items };
  }
  return next;
}
