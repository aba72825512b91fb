/**
 * Constructor parameter names, so di.xml can set arguments by name as Magento does through
 * reflection: read by a real JavaScript parser (acorn) from the class source, so comments,
 * default values (with commas, parentheses or strings), destructuring and formatting never
 * matter. And the `@inject` token of each parameter: recorded by the framework's own `inject`
 * decorator, or read through inversify's public `getClassMetadata` for classes decorated with
 * inversify's decorators directly.
 */
import 'reflect-metadata';
import { getClassMetadata } from './inversify.js';
import { parseExpressionAt, tokenizer, tokTypes, type Node, type Pattern } from 'acorn';

export interface ConstructorParameter {
  /** null for a destructured parameter (it has no name di.xml could use). */
  readonly name: string | null;
  readonly hasDefault: boolean;
}

export interface InjectionPoint {
  readonly serviceId: string | symbol | Function;
  readonly optional: boolean;
}

/** Where the framework's `inject`/`optional` decorators record each parameter's token. */
const INJECTIONS_KEY = Symbol.for('Framework\\ObjectManager\\injections');

interface RecordedInjection {
  serviceId?: string | symbol | Function;
  optional?: boolean;
}

/** Called by `inject()` / `optional()` of '#framework' for the parameter at `index`. */
export function recordInjection(target: Function, index: number, change: RecordedInjection): void {
  const own = (Reflect.getOwnMetadata(INJECTIONS_KEY, target) as RecordedInjection[] | undefined) ?? [];
  own[index] = { ...own[index], ...change };
  Reflect.defineMetadata(INJECTIONS_KEY, own, target);
}

interface FunctionLike {
  type: string;
  params: Pattern[];
}

/** The own constructor of a class (or the parameters of a plain function), or null when it has none. */
function ownConstructor(cls: Function): FunctionLike | null {
  const source = Function.prototype.toString.call(cls);
  if (source.endsWith('{ [native code] }')) return null;
  if (source.startsWith('class')) {
    const quick = classConstructorQuick(source);
    if (quick !== undefined) return quick;
  }
  let node: Node;
  try {
    node = parseExpressionAt(`(${source})`, 0, { ecmaVersion: 'latest' });
  } catch {
    throw new Error(
      `Cannot read the constructor parameters of ${cls.name || 'an anonymous class'}: its source does not parse`,
    );
  }
  // The expression is parenthesised: acorn answers the inner node.
  if (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression')
    return node as unknown as FunctionLike;
  if (node.type !== 'ClassExpression') return null;
  const body = (node as unknown as { body: { body: { type: string; kind?: string; value?: FunctionLike }[] } }).body
    .body;
  const ctor = body.find((member) => member.type === 'MethodDefinition' && member.kind === 'constructor');
  return ctor?.value ?? null;
}

/**
 * A class's own constructor without parsing its methods (most of a class's source): every class
 * the container builds goes through here at start-up, and parsing whole classes was a fifth of a
 * process's start. Answers undefined whenever it cannot be sure, and the whole class is parsed:
 *
 * - no `constructor` (and no escape that could spell it) anywhere in the source: it has none;
 * - else the first `constructor(` must be where a class member starts: the source up to it, closed
 *   with an empty constructor, must parse as a class whose last member is that constructor (a
 *   match in a comment, a string, a method body or an earlier field does not parse so, nor does a
 *   second constructor);
 * - its parameter list, found with acorn's tokenizer and followed by the body's `{`, must parse as
 *   the parameters of a function.
 */
function classConstructorQuick(source: string): FunctionLike | null | undefined {
  if (!source.includes('constructor') && !source.includes('\\')) return null;
  const at = /\bconstructor\s*\(/.exec(source)?.index;
  if (at === undefined) return undefined;
  try {
    const head = parseExpressionAt(`(${source.slice(0, at)}constructor(){}})`, 0, { ecmaVersion: 'latest' });
    if (head.type !== 'ClassExpression') return undefined;
    const members = (head as unknown as { body: { body: { type: string; kind?: string; start: number }[] } }).body.body;
    const last = members[members.length - 1];
    if (last?.type !== 'MethodDefinition' || last.kind !== 'constructor' || last.start !== at + 1) return undefined;
    // The parameter list: from the `(` after `constructor` to its matching `)`.
    const tokens = tokenizer(source.slice(at), { ecmaVersion: 'latest' });
    let depth = 0;
    let open = -1;
    let close = -1;
    for (const token of tokens) {
      if (token.type === tokTypes.parenL && depth++ === 0) open = token.start;
      else if (token.type === tokTypes.parenR && --depth === 0) {
        close = token.end;
        const next = tokens.getToken();
        if (next.type !== tokTypes.braceL) return undefined;
        break;
      }
    }
    if (open < 0 || close < 0) return undefined;
    const fn = parseExpressionAt(`(function${source.slice(at + open, at + close)} {})`, 0, { ecmaVersion: 'latest' });
    return fn.type === 'FunctionExpression' ? (fn as unknown as FunctionLike) : undefined;
  } catch {
    return undefined;
  }
}

function describe(param: Pattern): ConstructorParameter {
  switch (param.type) {
    case 'Identifier':
      return { name: param.name, hasDefault: false };
    case 'AssignmentPattern':
      return { name: param.left.type === 'Identifier' ? param.left.name : null, hasDefault: true };
    case 'RestElement':
      return { name: param.argument.type === 'Identifier' ? param.argument.name : null, hasDefault: true };
    default:
      return { name: null, hasDefault: false };
  }
}

const cache = new WeakMap<Function, ConstructorParameter[]>();

/** The parameters of the nearest constructor up the class chain. */
export function constructorParameters(cls: Function): ConstructorParameter[] {
  const cached = cache.get(cls);
  if (cached) return cached;
  let params: ConstructorParameter[] = [];
  for (
    let current: Function | null = cls;
    current && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    const ctor = ownConstructor(current);
    if (ctor) {
      params = ctor.params.map(describe);
      break;
    }
  }
  cache.set(cls, params);
  return params;
}

/** inversify's public view of a class decorated with its own decorators; null when it has none usable. */
function inversifyInjections(cls: Function): (InjectionPoint | undefined)[] | null {
  let metadata: ReturnType<typeof getClassMetadata>;
  try {
    metadata = getClassMetadata(cls as never);
  } catch {
    // Parameters without a decorator (filled by di.xml) make inversify's validation refuse the class.
    return null;
  }
  if (!metadata.constructorArguments.length) return null;
  return metadata.constructorArguments.map((arg) => {
    const managed = arg as { value?: unknown; optional?: boolean; isFromTypescriptParamType?: true };
    // A design-time type (String, Object...) is not a token anyone bound: leave it to di.xml.
    if (managed.value === undefined || managed.isFromTypescriptParamType) return undefined;
    return { serviceId: managed.value as string, optional: managed.optional === true };
  });
}

/** The `@inject(token)` of each constructor parameter, looked up the class chain. */
export function injectionPoints(cls: Function): (InjectionPoint | undefined)[] {
  for (
    let current: Function | null = cls;
    current && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    const recorded = Reflect.getOwnMetadata(INJECTIONS_KEY, current) as RecordedInjection[] | undefined;
    if (recorded?.length) {
      return Array.from(recorded, (entry) =>
        entry?.serviceId === undefined ? undefined : { serviceId: entry.serviceId, optional: entry.optional === true },
      );
    }
    const fromInversify = inversifyInjections(current);
    if (fromInversify) return fromInversify;
  }
  return [];
}
