/**
 * Constructor parameter names, read from the compiled class source, so di.xml can set arguments
 * by name as Magento does through reflection. And the inversify `@inject` tokens per parameter.
 */
import 'reflect-metadata';

export interface ConstructorParameter {
  readonly name: string | null;
  readonly hasDefault: boolean;
}

/** inversify 8 keeps its class metadata under this reflect key (see @inversifyjs/core). */
const INVERSIFY_CLASS_METADATA = '@inversifyjs/core/classMetadataReflectKey';

interface InversifyArgumentMetadata {
  value?: unknown;
  optional?: boolean;
}

export interface InjectionPoint {
  readonly serviceId: string | symbol | Function;
  readonly optional: boolean;
}

function ownConstructorSource(cls: Function): string | null {
  const source = Function.prototype.toString.call(cls);
  const match = /\bconstructor\s*\(/.exec(source);
  if (!match) return null;
  let depth = 1;
  let i = match.index + match[0].length;
  const start = i;
  for (; i < source.length && depth > 0; i++) {
    const ch = source[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
  }
  return source.slice(start, i - 1);
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of list) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

/** The parameters of the nearest constructor up the class chain. */
export function constructorParameters(cls: Function): ConstructorParameter[] {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const source = ownConstructorSource(current);
    if (source === null) continue;
    return splitTopLevel(source).map((part) => {
      const text = part.trim();
      const name = /^(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(text)?.[1] ?? null;
      return { name, hasDefault: text.includes('=') };
    });
  }
  return [];
}

/** The `@inject(token)` of each constructor parameter, looked up the class chain. */
export function injectionPoints(cls: Function): (InjectionPoint | undefined)[] {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const metadata = Reflect.getOwnMetadata(INVERSIFY_CLASS_METADATA, current) as
      | { constructorArguments?: (InversifyArgumentMetadata | undefined)[] }
      | undefined;
    if (metadata?.constructorArguments?.length) {
      return metadata.constructorArguments.map((arg) =>
        arg?.value === undefined ? undefined : { serviceId: arg.value as string, optional: arg.optional === true },
      );
    }
  }
  return [];
}
