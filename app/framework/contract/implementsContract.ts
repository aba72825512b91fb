import 'reflect-metadata';
import type { Contract } from './Contract.js';

/**
 * TypeScript's `implements` vanishes at run time; setup:di:compile reads it from the source of the
 * modules it sees (generated/metadata/implements.json), so plugins declared on a contract wrap every
 * class that implements it, as Magento does. A class whose source the build does not see (a module
 * compiled elsewhere) says so with this decorator: `@implementsContract(FooInterface)`.
 * Subclasses inherit the declaration.
 */
const IMPLEMENTS_KEY = Symbol.for('Framework\\Contract\\implements');

export function implementsContract(...contracts: readonly (Contract | string)[]): ClassDecorator {
  return (target) => {
    const own = (Reflect.getOwnMetadata(IMPLEMENTS_KEY, target) as string[] | undefined) ?? [];
    Reflect.defineMetadata(
      IMPLEMENTS_KEY,
      [...own, ...contracts.map((c) => (typeof c === 'string' ? c : c.name))],
      target,
    );
  };
}

/** Contract names a class (or one of its parents) declares with `@implementsContract`. */
export function declaredContracts(cls: object): string[] {
  const names: string[] = [];
  for (
    let current: object | null = cls;
    current && current !== Function.prototype;
    current = Object.getPrototypeOf(current) as object | null
  ) {
    for (const name of (Reflect.getOwnMetadata(IMPLEMENTS_KEY, current) as string[] | undefined) ?? []) {
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}
