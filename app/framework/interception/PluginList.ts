/**
 * Collecting the plugins of a method, apart from running them (see Interceptor.ts). Plugins are
 * sorted by sortOrder (a missing one counts as 0, as Magento's di.xml reader writes it; ties keep
 * declaration order, i.e. module load order) and cut into levels at each around plugin, exactly as Magento 2.4's PluginList does:
 * every before and after method joins the current level, and an around method closes it; the
 * plugins after it form the level its `proceed` calls into.
 */

export type PluginKind = 'before' | 'around' | 'after';

/** One plugin as the chain builder sees it: a sortable entry with a class to look methods up on. */
export interface PluginEntry {
  readonly name: string;
  readonly typeName: string;
  readonly sortOrder: number | undefined;
  readonly position: number;
  readonly pluginClass: Function;
  /** Resolves the (shared) plugin instance; called lazily, on the first call through the chain. */
  readonly instance: () => object;
}

export interface PluginMethodRef {
  readonly plugin: PluginEntry;
  readonly kind: PluginKind;
  readonly methodName: string;
  readonly fn: (...args: unknown[]) => unknown;
}

export interface PluginLevel {
  readonly before: PluginMethodRef[];
  around?: PluginMethodRef;
  readonly after: PluginMethodRef[];
}

const PLUGIN_METHOD = /^(before|around|after)([A-Z_$].*)$/;

/** Every `beforeX/aroundX/afterX` method of a plugin class (own and inherited), by target method. */
export function pluginMethods(pluginClass: Function): Map<string, Map<PluginKind, string>> {
  const found = new Map<string, Map<PluginKind, string>>();
  for (let proto = pluginClass.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const match = PLUGIN_METHOD.exec(key);
      if (!match || typeof Object.getOwnPropertyDescriptor(proto, key)?.value !== 'function') continue;
      const target = match[2]!.charAt(0).toLowerCase() + match[2]!.slice(1);
      const kinds = found.get(target) ?? new Map<PluginKind, string>();
      if (!kinds.has(match[1] as PluginKind)) kinds.set(match[1] as PluginKind, key);
      found.set(target, kinds);
    }
  }
  return found;
}

export function sortPlugins(plugins: readonly PluginEntry[]): PluginEntry[] {
  return [...plugins].sort((a, b) => {
    const x = a.sortOrder ?? 0;
    const y = b.sortOrder ?? 0;
    return x === y ? a.position - b.position : x < y ? -1 : 1;
  });
}

/** The levels of one target method; empty when no plugin touches it. */
export function buildLevels(plugins: readonly PluginEntry[], method: string): PluginLevel[] {
  const levels: PluginLevel[] = [];
  let current: PluginLevel = { before: [], after: [] };
  let touched = false;
  for (const plugin of sortPlugins(plugins)) {
    const kinds = pluginMethods(plugin.pluginClass).get(method);
    if (!kinds) continue;
    touched = true;
    const ref = (kind: PluginKind): PluginMethodRef => {
      const methodName = kinds.get(kind)!;
      return { plugin, kind, methodName, fn: plugin.pluginClass.prototype[methodName] };
    };
    if (kinds.has('before')) current.before.push(ref('before'));
    if (kinds.has('after')) current.after.push(ref('after'));
    if (kinds.has('around')) {
      current.around = ref('around');
      levels.push(current);
      current = { before: [], after: [] };
    }
  }
  if (!touched) return [];
  levels.push(current);
  return levels;
}

/** The call order of a chain, as text: what `dev:plugin:list` prints. */
export function describeLevels(levels: readonly PluginLevel[], method: string): string[] {
  const lines: string[] = [];
  const walk = (index: number, depth: number): void => {
    const level = levels[index];
    const pad = '  '.repeat(depth);
    if (!level) {
      lines.push(`${pad}${method}() itself`);
      return;
    }
    for (const ref of level.before)
      lines.push(
        `${pad}${ref.plugin.name}::${ref.methodName} (${ref.plugin.typeName}, sortOrder ${ref.plugin.sortOrder ?? 0})`,
      );
    if (level.around) {
      const ref = level.around;
      lines.push(
        `${pad}${ref.plugin.name}::${ref.methodName} (${ref.plugin.typeName}, sortOrder ${ref.plugin.sortOrder ?? 0}) -> proceed:`,
      );
      walk(index + 1, depth + 1);
    } else {
      lines.push(`${pad}${method}() itself`);
    }
    for (const ref of level.after)
      lines.push(
        `${pad}${ref.plugin.name}::${ref.methodName} (${ref.plugin.typeName}, sortOrder ${ref.plugin.sortOrder ?? 0})`,
      );
  };
  walk(0, 0);
  return lines;
}
