/**
 * Builds the inversify container from merged di.xml: preferences, types with arguments,
 * virtualTypes, `shared`, and plugins. Every class that has plugins is replaced by a generated
 * Interceptor subclass whose chains are composed here, once.
 */
import { Container, type ResolutionContext } from 'inversify';
import type { ArgumentValue, DiConfig, PluginDeclaration } from '../config/DiConfig.js';
import { ConfigError } from '../config/xml.js';
import { isContract, type Contract } from '../contract/Contract.js';
import { buildLevels, pluginMethods, type PluginEntry, type PluginLevel } from '../interception/PluginList.js';
import { createInterceptorClass } from '../interception/Interceptor.js';
import type { ClassResolver, Newable } from './ClassResolver.js';
import { constructorParameters, injectionPoints } from './constructorParameters.js';

export interface ResolvedChain {
  readonly typeName: string;
  readonly method: string;
  readonly levels: readonly PluginLevel[];
}

type Recipe = (ctx: ResolutionContext) => unknown;

function isClass(value: unknown): value is Newable {
  return typeof value === 'function' && value.prototype !== undefined;
}

export function serviceName(id: string | Contract): string {
  return typeof id === 'string' ? id : id.name;
}

export class ObjectManager {
  readonly container = new Container();
  /** Composed chains per concrete type name and method, for `dev:plugin:list` and tests. */
  private readonly chains = new Map<string, Map<string, PluginLevel[]>>();
  private readonly bound = new Set<string>();

  constructor(
    readonly config: DiConfig,
    private readonly resolver: ClassResolver,
    instances: ReadonlyMap<string, unknown> = new Map(),
  ) {
    for (const [name, instance] of instances) this.bindConstant(name, instance);
  }

  /** Every class name the config mentions, plus `extra` (route services, commands...). */
  static referencedNames(config: DiConfig): Map<string, string> {
    const names = new Map<string, string>();
    const add = (name: string, file: string) => {
      if (!names.has(name)) names.set(name, file);
    };
    const addArgument = (value: ArgumentValue) => {
      if (value.kind === 'object') add(value.type, value.file);
      if (value.kind === 'array') for (const item of value.items.values()) addArgument(item);
    };
    for (const [forName, preference] of config.preferences) {
      add(forName, preference.file);
      add(preference.type, preference.file);
    }
    for (const type of config.types.values()) {
      const file = type.files[0]!;
      add(type.name, file);
      if (type.virtualOf) add(type.virtualOf, file);
      for (const argument of type.arguments.values()) addArgument(argument);
      for (const plugin of type.plugins.values()) if (plugin.type) add(plugin.type, plugin.files[0]!);
    }
    return names;
  }

  get<T = unknown>(id: string | Contract<T>): T {
    const name = serviceName(id);
    if (!this.container.isBound(name)) {
      const value = this.resolver.has(name) ? this.resolver.get(name) : undefined;
      if (isContract(value)) throw new ConfigError(`No class serves the contract ${name}: declare a <preference for="${name}" type="..."/> in a di.xml`);
      throw new ConfigError(`Unknown type ${name}`);
    }
    return this.container.get<T>(name);
  }

  isBound(name: string): boolean {
    return this.container.isBound(name);
  }

  /** The chains composed for the class that serves `name`, by method. */
  chainsOf(name: string): ReadonlyMap<string, readonly PluginLevel[]> {
    return this.chains.get(this.concreteName(name)) ?? new Map();
  }

  /** Follows preferences to the name that is actually instantiated. */
  concreteName(name: string): string {
    const seen: string[] = [];
    let current = name;
    while (this.config.preferences.has(current)) {
      if (seen.includes(current)) throw new ConfigError(`Preference cycle: ${[...seen, current].join(' -> ')}`);
      seen.push(current);
      current = this.config.preferences.get(current)!.type;
    }
    return current;
  }

  /** Binds every loaded name. Call after the resolver has loaded all referenced names. */
  bindAll(names: Iterable<string>): void {
    for (const name of names) this.bindName(name);
    this.validatePluginTargets();
  }

  private bindConstant(name: string, value: unknown): void {
    this.container.bind(name).toConstantValue(value as object);
    this.bound.add(name);
  }

  private bindName(name: string): void {
    if (this.bound.has(name)) return;
    this.bound.add(name);
    const preference = this.config.preferences.get(name);
    if (preference) {
      this.concreteName(name); // rejects cycles with a clear message
      this.bindName(preference.type);
      this.container.bind(name).toService(preference.type);
      return;
    }
    const typeConfig = this.config.types.get(name);
    if (typeConfig?.virtualOf) {
      // A virtualType may vary another virtualType: its arguments apply over those of the chain.
      const chain = [name];
      let real = typeConfig.virtualOf;
      while (this.config.types.get(real)?.virtualOf) {
        if (chain.includes(real)) throw new ConfigError(`${typeConfig.files[0]}: virtualType cycle: ${[real, ...chain].join(' -> ')}`);
        chain.unshift(real);
        real = this.config.types.get(real)!.virtualOf!;
      }
      this.bindName(real);
      const realName = this.concreteName(real);
      const realClass = this.resolver.has(realName) ? this.resolver.get(realName) : undefined;
      if (!isClass(realClass)) throw new ConfigError(`${typeConfig.files[0]}: virtualType ${name} varies ${typeConfig.virtualOf}, which is not a class`);
      this.bindClass(name, realClass, [realName, ...chain]);
      return;
    }
    const value = this.resolver.has(name) ? this.resolver.get(name) : undefined;
    if (isContract(value) || value === undefined) return; // served through a preference, or unused
    if (!isClass(value)) {
      this.bindConstant(name, value);
      return;
    }
    this.bindClass(name, value, [name]);
  }

  /** `configNames`: the type names whose arguments apply, most general first. */
  private bindClass(name: string, cls: Newable, configNames: string[]): void {
    const argumentNames = [...this.superclassNames(cls), ...configNames];
    const args = new Map<string, ArgumentValue>();
    for (const typeName of argumentNames) {
      for (const [key, value] of this.config.types.get(typeName)?.arguments ?? []) args.set(key, value);
    }
    const concrete = this.intercept(name, cls, configNames);
    const recipes = this.recipes(name, cls, args);
    const shared = configNames.reduce<boolean | undefined>((acc, n) => this.config.types.get(n)?.shared ?? acc, undefined);
    const binding = this.container
      .bind(name)
      .toDynamicValue((ctx) => new concrete(...(recipes.map((recipe) => recipe(ctx)) as never[])));
    if (shared === false) binding.inTransientScope();
    else binding.inSingletonScope();
  }

  private superclassNames(cls: Newable): string[] {
    const names: string[] = [];
    for (let parent = Object.getPrototypeOf(cls); parent && parent !== Function.prototype; parent = Object.getPrototypeOf(parent)) {
      const parentName = this.resolver.nameOf(parent);
      if (parentName) names.unshift(parentName);
    }
    return names;
  }

  private recipes(name: string, cls: Newable, args: Map<string, ArgumentValue>): Recipe[] {
    const params = constructorParameters(cls);
    const injections = injectionPoints(cls);
    for (const key of args.keys()) {
      if (!params.some((p) => p.name === key)) {
        const files = this.config.types.get(name)?.files.join(', ') ?? 'di.xml';
        throw new ConfigError(`${files}: argument "${key}" of ${name} matches no constructor parameter (${params.map((p) => p.name).join(', ') || 'none'})`);
      }
    }
    return params.map((param, index): Recipe => {
      const configured = param.name ? args.get(param.name) : undefined;
      if (configured) return this.argumentRecipe(configured);
      const injection = injections[index];
      if (injection) {
        const id = isContract(injection.serviceId) ? injection.serviceId.name : injection.serviceId;
        return injection.optional ? (ctx) => ctx.get(id as string, { optional: true }) : (ctx) => ctx.get(id as string);
      }
      if (!param.hasDefault) {
        throw new ConfigError(`${name}: constructor parameter "${param.name ?? index}" has neither @inject(...) nor a di.xml <argument>`);
      }
      return () => undefined;
    });
  }

  private argumentRecipe(value: ArgumentValue): Recipe {
    switch (value.kind) {
      case 'null':
        return () => null;
      case 'object':
        return (ctx) => ctx.get(value.type);
      case 'array': {
        const items = [...value.items].map(([key, item]) => [key, this.argumentRecipe(item)] as const);
        return (ctx) => Object.fromEntries(items.map(([key, recipe]) => [key, recipe(ctx)]));
      }
      default:
        return () => value.value;
    }
  }

  /** The names whose plugins apply to an instance of `cls` bound as `name`. */
  private pluginTargets(cls: Newable, configNames: string[]): string[] {
    const targets = new Set<string>([...this.superclassNames(cls), ...configNames]);
    for (const forName of this.config.preferences.keys()) {
      if (configNames.includes(this.concreteName(forName))) targets.add(forName);
    }
    return [...targets];
  }

  private intercept(name: string, cls: Newable, configNames: string[]): Newable {
    const declarations = this.pluginTargets(cls, configNames).flatMap((target) => this.config.pluginsOn(target));
    if (declarations.length === 0) return cls;
    const entries = declarations.map((declaration) => this.pluginEntry(declaration));
    const methods = new Set(entries.flatMap((entry) => [...pluginMethods(entry.pluginClass).keys()]));
    const chains = new Map<string, PluginLevel[]>();
    for (const method of methods) {
      if (typeof cls.prototype[method] !== 'function') continue; // reported by validatePluginTargets
      const levels = buildLevels(entries, method);
      if (levels.length) chains.set(method, levels);
    }
    this.chains.set(name, chains);
    return createInterceptorClass(cls, chains);
  }

  private pluginEntry(declaration: PluginDeclaration): PluginEntry {
    const files = declaration.files.join(', ');
    if (!declaration.type) throw new ConfigError(`${files}: plugin "${declaration.name}" on ${declaration.target} has no type`);
    const pluginClass = this.resolver.get(declaration.type);
    if (!isClass(pluginClass)) throw new ConfigError(`${files}: plugin type ${declaration.type} is not a class`);
    const typeName = declaration.type;
    let instance: object | undefined;
    return {
      name: declaration.name,
      typeName,
      sortOrder: declaration.sortOrder,
      position: declaration.position,
      pluginClass,
      instance: () => (instance ??= this.get<object>(typeName)),
    };
  }

  /** A plugin method that names no method of its target is an error (Magento ignores it silently). */
  private validatePluginTargets(): void {
    for (const type of this.config.types.values()) {
      for (const declaration of type.plugins.values()) {
        if (declaration.disabled) continue;
        const entry = this.pluginEntry(declaration);
        const target = this.targetMethods(type.name);
        if (!target) {
          throw new ConfigError(`${declaration.files.join(', ')}: plugin "${declaration.name}" is declared on ${type.name}, which does not resolve to a class or contract`);
        }
        for (const method of pluginMethods(entry.pluginClass).keys()) {
          if (!target.has(method)) {
            throw new ConfigError(
              `${declaration.files.join(', ')}: plugin "${declaration.name}" (${declaration.type}) intercepts ${type.name}::${method}(), which does not exist; methods: ${[...target].sort().join(', ')}`,
            );
          }
        }
      }
    }
  }

  private targetMethods(name: string): Set<string> | undefined {
    const typeConfig = this.config.types.get(name);
    const valueName = typeConfig?.virtualOf ? this.concreteName(typeConfig.virtualOf) : name;
    if (!this.resolver.has(valueName)) return undefined;
    const value = this.resolver.get(valueName);
    if (isContract(value)) return new Set(Object.keys(value.methods));
    if (!isClass(value)) return undefined;
    const methods = new Set<string>();
    for (let proto = value.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, key)?.value === 'function') methods.add(key);
      }
    }
    return methods;
  }
}
