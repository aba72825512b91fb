/**
 * Builds the inversify container from merged di.xml: preferences, types with arguments,
 * virtualTypes, `shared`. Every class that has plugins is replaced by a generated Interceptor
 * subclass whose chains PluginChainBuilder composes, once; validatePluginTargets checks them.
 */
import { Container, type ResolutionContext } from './inversify.js';
import { mergeArgument, type ArgumentValue, type DiConfig } from '../config/DiConfig.js';
import { ConfigError } from '../xml/xml.js';
import { isContract, type Contract } from '../contract/Contract.js';
import type { PluginLevel } from '../interception/PluginList.js';
import { createInterceptorClass } from '../interception/Interceptor.js';
import { PluginChainBuilder } from './PluginChainBuilder.js';
import { isClass, type ClassResolver, type Newable } from './ClassResolver.js';
import { validatePluginTargets } from './validatePluginTargets.js';
import { constructorParameters, injectionPoints } from './constructorParameters.js';

export interface ResolvedChain {
  readonly typeName: string;
  readonly method: string;
  readonly levels: readonly PluginLevel[];
}

type Recipe = (ctx: ResolutionContext) => unknown;

const DEPLOYMENT_CONFIG = 'Framework\\App\\DeploymentConfig';

export function serviceName(id: string | Contract): string {
  return typeof id === 'string' ? id : id.name;
}

export class ObjectManager {
  readonly container = new Container();
  /** Composed chains per concrete type name and method, for `dev:plugin:list` and tests. */
  private readonly chains = new Map<string, Map<string, PluginLevel[]>>();
  private readonly bound = new Set<string>();
  /** How to build a fresh instance of each bound class name (for shared="false" object arguments). */
  private readonly factories = new Map<string, Recipe>();
  private readonly plugins: PluginChainBuilder;

  constructor(
    readonly config: DiConfig,
    private readonly resolver: ClassResolver,
    instances: ReadonlyMap<string, unknown> = new Map(),
    /** Class name -> contracts its TypeScript source implements (setup:di:compile). */
    implemented: Readonly<Record<string, readonly string[]>> = {},
  ) {
    this.plugins = new PluginChainBuilder(config, resolver, (typeName) => this.get<object>(typeName), implemented);
    for (const [name, instance] of instances) this.bindConstant(name, instance);
  }

  /**
   * Every class name the config mentions, with where: the file and the element that names it
   * (`etc/di.xml: <virtualType name="..." type="...">`), for the errors of start-up.
   */
  static referencedNames(config: DiConfig): Map<string, string> {
    const names = new Map<string, string>();
    const add = (name: string, where: string) => {
      if (!names.has(name)) names.set(name, where);
    };
    const addArgument = (value: ArgumentValue, owner: string) => {
      if (value.kind === 'object')
        add(value.type, `${value.file}: ${owner}, <argument xsi:type="object">${value.type}`);
      if (value.kind === 'const') add(`${value.ref}`, value.file);
      if (value.kind === 'init_parameter' && value.ref.includes('::')) add(value.ref, value.file);
      if (value.kind === 'array') for (const item of value.items.values()) addArgument(item, owner);
    };
    for (const [forName, preference] of config.preferences) {
      const where = `${preference.file}: <preference for="${forName}" type="${preference.type}">`;
      add(forName, where);
      add(preference.type, where);
    }
    for (const type of config.types.values()) {
      const file = type.files[0]!;
      const element = type.virtualOf
        ? `<virtualType name="${type.name}" type="${type.virtualOf}">`
        : `<type name="${type.name}">`;
      add(type.name, `${file}: ${element}`);
      if (type.virtualOf) add(type.virtualOf, `${file}: ${element}`);
      for (const argument of type.arguments.values()) addArgument(argument, element);
      for (const plugin of type.plugins.values()) {
        if (plugin.type)
          add(plugin.type, `${plugin.files[0]!}: <plugin name="${plugin.name}" type="${plugin.type}"> on ${type.name}`);
      }
    }
    return names;
  }

  get<T = unknown>(id: string | Contract<T>): T {
    const name = serviceName(id);
    if (!this.container.isBound(name)) {
      const value = this.resolver.has(name) ? this.resolver.get(name) : undefined;
      if (isContract(value))
        throw new ConfigError(
          `No class serves the contract ${name}: declare a <preference for="${name}" type="..."/> in a di.xml`,
        );
      throw new ConfigError(`Unknown type ${name}`);
    }
    return this.container.get<T>(name);
  }

  /** A new instance of `name` (after preferences), whatever its `shared`: `<argument xsi:type="object" shared="false">`. */
  create<T = unknown>(name: string, ctx: ResolutionContext = this.container as unknown as ResolutionContext): T {
    const concrete = this.concreteName(name);
    const factory = this.factories.get(concrete);
    if (!factory) return this.get<T>(name); // a constant the runtime provides: there is only one
    return factory(ctx) as T;
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

  /**
   * The class that is built for `name`: preferences followed, then each virtual type to the type
   * it varies (a `<preference>` may name a virtual type, as in Magento).
   */
  className(name: string): string {
    const seen: string[] = [];
    let current = this.concreteName(name);
    for (let virtualOf = this.config.types.get(current)?.virtualOf; virtualOf;) {
      if (seen.includes(current)) throw new ConfigError(`virtualType cycle: ${[...seen, current].join(' -> ')}`);
      seen.push(current);
      current = this.concreteName(virtualOf);
      virtualOf = this.config.types.get(current)?.virtualOf;
    }
    return current;
  }

  /** Binds every loaded name. Call after the resolver has loaded all referenced names. */
  bindAll(names: Iterable<string>): void {
    for (const name of names) this.bindName(name);
    validatePluginTargets(this.config, this.resolver, this.plugins, (n) => this.concreteName(n));
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
        if (chain.includes(real))
          throw new ConfigError(`${typeConfig.files[0]}: virtualType cycle: ${[real, ...chain].join(' -> ')}`);
        chain.unshift(real);
        real = this.config.types.get(real)!.virtualOf!;
      }
      this.bindName(real);
      const realName = this.concreteName(real);
      const realClass = this.resolver.has(realName) ? this.resolver.get(realName) : undefined;
      if (!isClass(realClass))
        throw new ConfigError(
          `${typeConfig.files[0]}: virtualType ${name} varies ${typeConfig.virtualOf}, which is not a class`,
        );
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
    // A subclass and a virtual type inherit their parents' arguments, arrays merging item by item.
    const args = new Map<string, ArgumentValue>();
    for (const typeName of argumentNames) {
      for (const [key, value] of this.config.types.get(typeName)?.arguments ?? [])
        args.set(key, mergeArgument(args.get(key), value));
    }
    const concrete = this.intercept(name, cls, configNames);
    const recipes = this.recipes(name, cls, args);
    // Magento looks `shared` up by the exact type name: a virtual type does not inherit it.
    const shared = this.config.types.get(name)?.shared;
    const factory: Recipe = (ctx) => new concrete(...(recipes.map((recipe) => recipe(ctx)) as never[]));
    this.factories.set(name, factory);
    const binding = this.container.bind(name).toDynamicValue(factory);
    if (shared === false) binding.inTransientScope();
    else binding.inSingletonScope();
  }

  private superclassNames(cls: Newable): string[] {
    const names: string[] = [];
    for (
      let parent = Object.getPrototypeOf(cls);
      parent && parent !== Function.prototype;
      parent = Object.getPrototypeOf(parent)
    ) {
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
        throw new ConfigError(
          `${files}: argument "${key}" of ${name} matches no constructor parameter (${params.map((p) => p.name).join(', ') || 'none'})`,
        );
      }
    }
    return params.map((param, index): Recipe => {
      const configured = param.name ? args.get(param.name) : undefined;
      if (configured) return this.argumentRecipe(configured, name);
      const injection = injections[index];
      if (injection) {
        const id = isContract(injection.serviceId) ? injection.serviceId.name : injection.serviceId;
        return injection.optional ? (ctx) => ctx.get(id as string, { optional: true }) : (ctx) => ctx.get(id as string);
      }
      if (!param.hasDefault) {
        throw new ConfigError(
          `${name}: constructor parameter "${param.name ?? index}" has neither @inject(...) nor a di.xml <argument>`,
        );
      }
      return () => undefined;
    });
  }

  private argumentRecipe(value: ArgumentValue, typeName: string): Recipe {
    switch (value.kind) {
      case 'null':
        return () => null;
      case 'object':
        return value.shared === false ? (ctx) => this.create(value.type, ctx) : (ctx) => ctx.get(value.type);
      case 'const': {
        const constant = this.resolver.constant(value.ref);
        return () => constant;
      }
      case 'init_parameter': {
        const key = value.ref.includes('::') ? this.resolver.constant(value.ref) : value.ref;
        const deployment = (
          this.container.isBound(DEPLOYMENT_CONFIG) ? this.container.get(DEPLOYMENT_CONFIG) : {}
        ) as Record<string, unknown>;
        if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(deployment, key)) {
          throw new ConfigError(
            `${value.file}: init_parameter "${String(key)}" of ${typeName} is not a deployment setting (${Object.keys(deployment).sort().join(', ')})`,
          );
        }
        return () => deployment[key];
      }
      case 'array': {
        const items = [...value.items].map(([key, item]) => [key, this.argumentRecipe(item, typeName)] as const);
        return (ctx) => Object.fromEntries(items.map(([key, recipe]) => [key, recipe(ctx)]));
      }
      default:
        return () => value.value;
    }
  }

  private intercept(name: string, cls: Newable, configNames: string[]): Newable {
    const chains = this.plugins.chainsFor(cls, [...this.superclassNames(cls), ...configNames]);
    if (!chains) return cls;
    this.chains.set(name, chains);
    return createInterceptorClass(cls, chains);
  }
}
