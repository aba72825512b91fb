/**
 * Plugin-chain assembly (Magento's PluginList + interception config): which di.xml plugin
 * declarations apply to a class (through its contracts, parents and own name), merged by name
 * down the hierarchy, and composed per method into Magento's before/around/after levels. It is the
 * container's glue from di.xml to chains, so it lives in di/; interception/ is only the engine
 * (PluginList orders, Interceptor runs) and knows nothing of di.xml or class names.
 */
import type { DiConfig, PluginDeclaration } from '../config/DiConfig.js';
import { ConfigError } from '../xml/xml.js';
import { declaredContracts } from '../contract/implementsContract.js';
import { isClass, type ClassResolver, type Newable } from './ClassResolver.js';
import { buildLevels, pluginMethods, type PluginEntry, type PluginLevel } from '../interception/PluginList.js';

export class PluginChainBuilder {
  constructor(
    private readonly config: DiConfig,
    private readonly resolver: ClassResolver,
    /** The (shared) plugin instance of a type name, asked for on the first intercepted call. */
    private readonly instanceOf: (typeName: string) => object,
    /** Class name -> contracts it `implements` in TypeScript (setup:di:compile's generated/metadata/implements.json). */
    private readonly implemented: Readonly<Record<string, readonly string[]>> = {},
  ) {}

  /**
   * The chains by method for `cls`, whose own names (parent classes, then the di.xml names it is
   * bound under) are `own`; undefined when no plugin applies.
   */
  chainsFor(cls: Newable, own: string[]): Map<string, PluginLevel[]> | undefined {
    const declarations = this.mergedPlugins(this.pluginTargets(cls, own));
    if (declarations.length === 0) return undefined;
    const entries = declarations.map((declaration) => this.entry(declaration));
    const methods = new Set(entries.flatMap((entry) => [...pluginMethods(entry.pluginClass).keys()]));
    const chains = new Map<string, PluginLevel[]>();
    for (const method of methods) {
      if (typeof cls.prototype[method] !== 'function') continue; // reported by validatePluginTargets
      const levels = buildLevels(entries, method);
      if (levels.length) chains.set(method, levels);
    }
    return chains;
  }

  entry(declaration: PluginDeclaration): PluginEntry {
    const files = declaration.files.join(', ');
    if (!declaration.type)
      throw new ConfigError(`${files}: plugin "${declaration.name}" on ${declaration.target} has no type`);
    // A plugin's type may be a virtual type (as in Magento): its methods are those of the class it varies.
    let className = declaration.type;
    for (const seen = new Set<string>(); this.config.types.get(className)?.virtualOf && !seen.has(className);) {
      seen.add(className);
      className = this.config.types.get(className)!.virtualOf!;
    }
    const pluginClass = this.resolver.get(className);
    if (!isClass(pluginClass)) throw new ConfigError(`${files}: plugin type ${declaration.type} is not a class`);
    const typeName = declaration.type;
    let instance: object | undefined;
    return {
      name: declaration.name,
      typeName,
      sortOrder: declaration.sortOrder ?? 0,
      position: declaration.position,
      pluginClass,
      instance: () => (instance ??= this.instanceOf(typeName)),
    };
  }

  /**
   * The names whose plugins apply to an instance of `cls` bound as `name`, most general first:
   * the contracts it implements (those whose preference chain passes through it or a parent, those
   * its TypeScript source `implements` as setup:di:compile read it, and those it declares with
   * @implementsContract), then `own`.
   */
  private pluginTargets(cls: Newable, own: string[]): string[] {
    const through = this.preferredThrough();
    const contracts = [...new Set(own.flatMap((name) => through.get(name) ?? []))].sort(
      (a, b) => this.preferenceOrder.get(a)! - this.preferenceOrder.get(b)!,
    );
    for (const name of own) contracts.push(...(Object.hasOwn(this.implemented, name) ? this.implemented[name]! : []));
    contracts.push(...declaredContracts(cls));
    return [...new Set([...contracts, ...own])];
  }

  /** Each preference's `for` name, by its place in di.xml's merged order. */
  private readonly preferenceOrder = new Map<string, number>();
  /** Type name -> the preferences (`for` names) whose chain passes through it, made once per container. */
  private through?: Map<string, string[]>;

  private preferredThrough(): Map<string, string[]> {
    if (this.through) return this.through;
    this.through = new Map();
    for (const forName of this.config.preferences.keys()) {
      this.preferenceOrder.set(forName, this.preferenceOrder.size);
      const seen = new Set([forName]);
      for (
        let next = this.config.preferences.get(forName)?.type;
        next && !seen.has(next);
        next = this.config.preferences.get(next)?.type
      ) {
        const names = this.through.get(next) ?? [];
        names.push(forName);
        this.through.set(next, names);
        seen.add(next); // a cycle is reported where it is bound; here it must only not loop
      }
    }
    return this.through;
  }

  /**
   * Plugin configuration merged by name down the hierarchy, as Magento's PluginList does: a
   * declaration on the class (or a subclass) changes the attributes it sets of the plugin of the
   * same name declared on a contract or parent, e.g. `disabled="true"` or a new `sortOrder`.
   */
  private mergedPlugins(targets: readonly string[]): PluginDeclaration[] {
    const merged = new Map<string, PluginDeclaration>();
    for (const target of targets) {
      for (const declaration of this.config.types.get(target)?.plugins.values() ?? []) {
        const previous = merged.get(declaration.name);
        if (!previous) {
          merged.set(declaration.name, { ...declaration, files: [...declaration.files] });
          continue;
        }
        if (declaration.type !== undefined) previous.type = declaration.type;
        if (declaration.sortOrder !== undefined) previous.sortOrder = declaration.sortOrder;
        if (declaration.disabled !== undefined) previous.disabled = declaration.disabled;
        previous.files.push(...declaration.files.filter((file) => !previous.files.includes(file)));
      }
    }
    return [...merged.values()].filter((declaration) => !declaration.disabled);
  }
}
