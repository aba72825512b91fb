/**
 * The one check every request's input passes before any contract validation: body nesting depth,
 * and characters no database stores the same way (NUL is refused by PostgreSQL; lone UTF-16
 * surrogates become U+FFFD on PostgreSQL and MariaDB) or that no field means (other control
 * characters). Free text in a body may keep tab, line feed and carriage return; keys, path
 * segments and query values may not. Walks iteratively, so no input can exhaust the stack.
 */
import { InputException, invalidFieldValue, unknownField, type InputError } from '../exception/InputException.js';
import { WebapiException } from './WebapiException.js';

export const DEFAULT_MAX_JSON_DEPTH = 64;
/** What the query parser (qs) takes; more would be dropped silently, so more answers 400. */
export const MAX_QUERY_PARAMETERS = 1000;

export const TOO_MANY_QUERY_PARAMETERS = 'The query string has %count parameters; at most %max are accepted.';
/** Magento answers a body json_decode refuses (deeper than its depth limit, too) with this phrase. */
export const DECODING_ERROR = 'Decoding error.';

const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
/** Body string values: C0 controls but tab, LF and CR; DEL; C1 controls; lone surrogates. */
const UNSAFE_IN_TEXT = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]|${LONE_SURROGATE}`);
/** Keys, path segments and query values: every control character, and lone surrogates. */
const UNSAFE_IN_NAME = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F]|${LONE_SURROGATE}`);
const UNSAFE_GLOBAL = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F]|${LONE_SURROGATE}`, 'g');

export interface UntrustedInput {
  readonly pathParams: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly query: unknown;
}

/** `a\u0000b` shown as `a\u0000b` (escaped text), so an error message never carries the character itself. */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE_GLOBAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Counts the parameters of a raw query string as qs splits them (on `&`). */
export function countQueryParameters(url: string): number {
  const at = url.indexOf('?');
  if (at < 0 || at === url.length - 1) return 0;
  return url.slice(at + 1).split('&').length;
}

export function assertQueryParameterCount(url: string, max = MAX_QUERY_PARAMETERS): void {
  const count = countQueryParameters(url);
  if (count > max) throw new WebapiException(400, TOO_MANY_QUERY_PARAMETERS, { count, max });
}

/** Throws 400 `Decoding error.` past `maxDepth` levels of arrays/objects. */
export function assertDepth(value: unknown, maxDepth: number): void {
  if (value === null || typeof value !== 'object') return;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) throw new WebapiException(400, DECODING_ERROR);
    for (const child of Object.values(node as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
}

/**
 * Every string of the request, keys included, in the fields' web API names. Answers one
 * InputException listing up to 20 problems.
 */
export function assertSafeStrings(input: UntrustedInput): void {
  const errors: InputError[] = [];
  const add = (error: InputError) => {
    if (errors.length < 20) errors.push(error);
  };
  for (const [name, value] of Object.entries(input.pathParams)) {
    if (UNSAFE_IN_NAME.test(value)) add(invalidFieldValue(name, escapeUnsafe(value)));
  }
  walk(input.query, '', UNSAFE_IN_NAME, add);
  walk(input.body, '', UNSAFE_IN_TEXT, add);
  if (errors.length) throw new InputException(errors);
}

function walk(root: unknown, rootName: string, unsafeValue: RegExp, add: (error: InputError) => void): void {
  const stack: [unknown, string][] = [[root, rootName]];
  while (stack.length > 0) {
    const [node, name] = stack.pop()!;
    if (typeof node === 'string') {
      if (unsafeValue.test(node)) add(invalidFieldValue(name, escapeUnsafe(node)));
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${name}[${i}]`]);
      continue;
    }
    const entries = Object.entries(node as object);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i]!;
      const path = name ? `${name}.${key}` : key;
      if (UNSAFE_IN_NAME.test(key)) add(unknownField(name ? `${name}.${escapeUnsafe(key)}` : escapeUnsafe(key)));
      else stack.push([value, path]);
    }
  }
}
