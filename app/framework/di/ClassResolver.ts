/**
 * Turns a Magento-style class name into a value: `Vendor\Module\Path\Name` is the export `Name`
 * of `modules/Vendor/Module/Path/Name.ts` (compiled to .js). Framework names (`Framework\...`)
 * come from a registry the runtime fills. Everything is imported once, at start-up.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../xml/xml.js';
import type { ModuleDefinition } from '../module/ModuleLoader.js';

export type Newable = new (...args: never[]) => object;

/**
 * Classes of Magento's own framework that a ported module's di.xml may name and this runtime does
 * not provide, with what to write instead (start-up stops on them, naming the file and the element).
 */
export const MAGENTO_CLASSES_NOT_PROVIDED: ReadonlyMap<string, string> = new Map([
  [
    'Magento\\Framework\\Api\\ExtensionAttribute\\Config\\MetadataConfig',
    "Magento's metadata service of a data object's custom attributes (read from EAV). Here a data interface declares " +
      'its custom attributes itself: defineDataInterface(name, { fields, customAttributes: { codes: [...] } }) ' +
      '(app/framework/api/CustomAttributes.ts); remove this element and the arguments that name it',
  ],
  [
    'Magento\\Eav\\Model\\EavCustomAttributeTypeLocator',
    "Magento's EAV locator of the types of custom attribute values. Here a data interface gives them: " +
      'defineDataInterface(name, { fields, customAttributes: { codes: [...], types: { code: <joi schema> } } }); ' +
      'remove this element',
  ],
]);

export function isClass(value: unknown): value is Newable {
  return typeof value === 'function' && value.prototype !== undefined;
}

/**
 * The modules imported so far, by file. Node keeps an imported module for the life of the process
 * and answers it again for the same URL, so this answers exactly what import() would; it only saves
 * the loader's resolution of each of some hundred files on every start (each test application, each
 * CLI run of a test). A file that failed to import is not kept: it fails again as it did.
 */
const importedFiles = new Map<string, Record<string, unknown>>();

export class ClassResolver {
  private readonly resolved = new Map<string, unknown>();
  private readonly constants = new Map<string, unknown>();
  private readonly byModule: Map<string, ModuleDefinition>;

  constructor(
    modules: readonly ModuleDefinition[],
    private readonly builtins: ReadonlyMap<string, unknown> = new Map(),
  ) {
    this.byModule = new Map(modules.map((m) => [m.name, m]));
  }

  /** Imports `name` (once) and remembers it; `where` names the config file that asked. */
  async load(name: string, where: string): Promise<unknown> {
    if (this.resolved.has(name)) return this.resolved.get(name);
    const value = await this.importName(name, where);
    this.resolved.set(name, value);
    return value;
  }

  /** A name already loaded; throws if `load` was not called for it first. */
  get(name: string): unknown {
    if (this.builtins.has(name)) return this.builtins.get(name);
    if (!this.resolved.has(name)) throw new Error(`Class ${name} was not loaded at start-up`);
    return this.resolved.get(name);
  }

  has(name: string): boolean {
    return this.resolved.has(name) || this.builtins.has(name);
  }

  /**
   * `Vendor\Module\Path\Name::CONSTANT` (di.xml `xsi:type="const"`): the export `CONSTANT` of that
   * file, else the static property `CONSTANT` of its class. Loaded once, at start-up.
   */
  async loadConstant(ref: string, where: string): Promise<unknown> {
    if (this.constants.has(ref)) return this.constants.get(ref);
    const [className, constant] = ref.replace(/^\\/, '').split('::') as [string, string];
    let value: unknown;
    if (this.builtins.has(className)) {
      const owner = this.builtins.get(className) as Record<string, unknown> | undefined;
      if (owner === undefined || !(constant in Object(owner)))
        throw new ConfigError(`${where}: constant ${ref} does not resolve: ${className} has no "${constant}"`);
      value = owner[constant];
    } else {
      const { exports, file } = await this.importFile(className, where);
      const owner = exports[className.split('\\').pop()!] as Record<string, unknown> | undefined;
      if (constant in exports) value = exports[constant];
      else if (owner !== undefined && (typeof owner === 'function' || typeof owner === 'object') && constant in owner)
        value = owner[constant];
      else {
        throw new ConfigError(
          `${where}: constant ${ref} does not resolve: ${path.relative(process.cwd(), file)} exports no "${constant}" and its class has no static "${constant}"`,
        );
      }
    }
    this.constants.set(ref, value);
    return value;
  }

  /** A constant already loaded with `loadConstant`. */
  constant(ref: string): unknown {
    if (!this.constants.has(ref)) throw new Error(`Constant ${ref} was not loaded at start-up`);
    return this.constants.get(ref);
  }

  /** The name a loaded value was registered under, if any (for error messages and plugin look-up). */
  nameOf(value: unknown): string | undefined {
    for (const [name, candidate] of this.resolved) if (candidate === value) return name;
    return undefined;
  }

  private async importName(name: string, where: string): Promise<unknown> {
    if (this.builtins.has(name)) return this.builtins.get(name);
    const { exports, file } = await this.importFile(name, where);
    const exportName = name.split('\\').pop()!;
    if (!(exportName in exports)) {
      throw new ConfigError(
        `${where}: class ${name} does not resolve: ${path.relative(process.cwd(), file)} has no export "${exportName}"`,
      );
    }
    return exports[exportName];
  }

  private async importFile(name: string, where: string): Promise<{ exports: Record<string, unknown>; file: string }> {
    const parts = name.replace(/^\\/, '').split('\\');
    if (parts.length < 3 || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) {
      throw new ConfigError(`${where}: "${name}" is not a class name of the form Vendor\\Module\\Path\\Name`);
    }
    const [vendor, moduleName, ...rest] = parts;
    const module = this.byModule.get(`${vendor}_${moduleName}`);
    const instead = MAGENTO_CLASSES_NOT_PROVIDED.get(name.replace(/^\\/, ''));
    if (!module && instead) {
      throw new ConfigError(`${where}: ${name} is not provided by this runtime: it is ${instead}`);
    }
    if (!module) {
      throw new ConfigError(`${where}: class ${name} does not resolve: module ${vendor}_${moduleName} is not enabled`);
    }
    const file = path.join(module.codeDir, ...rest) + '.js';
    if (!existsSync(file)) {
      throw new ConfigError(
        `${where}: class ${name} does not resolve: no file ${path.relative(process.cwd(), file)} (was the project built?)`,
      );
    }
    let exports = importedFiles.get(file);
    if (!exports) {
      exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      importedFiles.set(file, exports);
    }
    return { exports, file };
  }
}
