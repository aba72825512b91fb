/**
 * Plugin validation: a plugin method that names no method of its target is an error (Magento
 * ignores it silently), and so is a plugin declared on a name that is no class or contract.
 */
import type { DiConfig } from '../config/DiConfig.js';
import { ConfigError } from '../xml/xml.js';
import { isContract } from '../contract/Contract.js';
import { pluginMethods } from '../interception/PluginList.js';
import type { PluginChainBuilder } from './PluginChainBuilder.js';
import { isClass, type ClassResolver } from './ClassResolver.js';

export function validatePluginTargets(
  config: DiConfig,
  resolver: ClassResolver,
  plugins: PluginChainBuilder,
  /** The class that serves a name (preferences followed). */
  concreteName: (name: string) => string,
): void {
  for (const type of config.types.values()) {
    for (const declaration of type.plugins.values()) {
      // A declaration without a type only changes a plugin of that name inherited from a contract or parent.
      if (declaration.disabled || declaration.type === undefined) continue;
      const entry = plugins.entry(declaration);
      const target = targetMethods(type.name, config, resolver, concreteName);
      if (!target) {
        throw new ConfigError(
          `${declaration.files.join(', ')}: plugin "${declaration.name}" is declared on ${type.name}, which does not resolve to a class or contract`,
        );
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

function targetMethods(
  name: string,
  config: DiConfig,
  resolver: ClassResolver,
  concreteName: (name: string) => string,
): Set<string> | undefined {
  const typeConfig = config.types.get(name);
  const valueName = typeConfig?.virtualOf ? concreteName(typeConfig.virtualOf) : name;
  if (!resolver.has(valueName)) return undefined;
  const value = resolver.get(valueName);
  if (isContract(value)) return new Set(Object.keys(value.methods));
  if (!isClass(value)) return undefined;
  const methods = new Set<string>();
  for (let proto = value.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, key)?.value === 'function')
        methods.add(key);
    }
  }
  return methods;
}
