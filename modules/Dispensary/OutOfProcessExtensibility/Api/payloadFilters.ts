/**
 * The payload rules and fields of Adobe's webhooks and events (Dispensary_Webhooks and
 * Dispensary_Eventing share them, as Adobe's two modules share
 * Magento_AdobeCommerceOutOfProcessExtensibility):
 *   - `rules` (all must hold) decide whether a hook is called or an event sent; a rule's `field` is
 *     a dot path into the payload;
 *   - `fields` choose what is sent: each `{name, source}` copies the value at `source` (a dot path,
 *     `name` when absent) to `name` (a dot path) of the sent object; `items[].sku` maps over an
 *     array and `*` sends the whole payload (pickField, placeField).
 *
 * Every path reaches only the payload's own data: a path naming `__proto__`, `constructor`,
 * `prototype` or any other name objects inherit (`hasOwnProperty`, `toString`...) is refused at
 * subscription and in webhooks.xml/io_events.xml (pathProblem, filterSettings.ts's filterProblem);
 * walking a path never follows an inherited property (ownChild). A webhook answer's operations
 * (`/`-separated paths) are Dispensary_Webhooks' own and walk the payload with the same helpers.
 */
import { RE2JS } from 're2js';

type Json = Record<string, unknown>;

/** A `fields` entry: the value at `source` (`name` when absent) is sent at `name`. */
export interface PayloadField {
  name: string;
  source?: string;
}

/** A `rules` entry: the value at `field` compared by `operator` with `value`. */
export interface PayloadRule {
  field: string;
  operator: string;
  value?: string;
}

/** A name no path may take: it would reach the prototype chain, not the payload's own data. */
export function isForbiddenSegment(segment: string): boolean {
  return segment === 'prototype' || segment in Object.prototype;
}

/** The own property `key` of `value` (never an inherited one); undefined when there is none. */
export function ownChild(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
  return (value as Json)[key];
}

/** The value at `parts` below `root`, through own properties only; undefined when there is none. */
export function valueAt(root: unknown, parts: readonly string[]): unknown {
  let cursor = root;
  for (const part of parts) {
    cursor = ownChild(cursor, part);
    if (cursor === undefined) return undefined;
  }
  return cursor;
}

export const dotPath = (path: string): string[] => path.split('.').filter((part) => part !== '');
export const slashPath = (path: string): string[] => path.split('/').filter((part) => part !== '');

/** Why a dot path (`fields`, `source`, a rule's `field`) or slash path (an operation's) is refused; null: it is not. */
export function pathProblem(path: string, separator: '.' | '/'): string | null {
  // A field form's `items[]` segment walks the own property `items` (pickField, placeField).
  const parts = (separator === '.' ? dotPath(path) : slashPath(path)).map((part) =>
    separator === '.' ? part.replace(/(\[\])+$/, '') : part,
  );
  if (parts.length === 0 || parts.some((part) => part === '')) return 'the path is empty';
  const forbidden = parts.find(isForbiddenSegment);
  if (forbidden !== undefined)
    return `"${forbidden}" is not a property of the data: a path may only name the data's own properties`;
  return null;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && Object.keys(value as object).length === 0)
  );
}

/** A value as a rule compares it; an object whose own `toString` is not a function compares as ''. */
function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '';
  }
}

const REGEX_FLAGS: ReadonlyMap<string, number> = new Map([
  ['i', RE2JS.CASE_INSENSITIVE],
  ['m', RE2JS.MULTILINE],
  ['s', RE2JS.DOTALL],
  ['u', 0], // RE2 matches Unicode code points anyway
]);

/**
 * A rule's `/pattern/flags` (PHP's preg style, as Adobe's docs write them) or bare pattern,
 * compiled by RE2 (re2js): matching takes time linear in the input, whatever the pattern, so a
 * rule cannot stop the event loop. RE2 has no backreferences and no lookaround; such a pattern,
 * an invalid one or a flag other than i, m, s, u throws an Error saying why. `lenient`: unknown
 * flags are ignored (subscriptions stored before they were refused).
 */
export function compileRegex(value: string, lenient = false): RE2JS {
  const match = /^\/(.*)\/([A-Za-z]*)$/s.exec(value);
  const [pattern, flags] = match ? [match[1]!, match[2]!] : [value, ''];
  let mask = 0;
  for (const flag of flags) {
    const bit = REGEX_FLAGS.get(flag);
    if (bit === undefined && !lenient) throw new Error(`the regex flag "${flag}" is not supported (i, m, s and u are)`);
    mask |= bit ?? 0;
  }
  try {
    return RE2JS.compile(pattern, mask);
  } catch (error) {
    throw new Error(
      `not a regular expression this service takes (RE2 syntax: no backreferences, no lookaround): ${(error as Error).message}`,
    );
  }
}

/** Compiled rule patterns, by their text (at most REGEX_CACHE_SIZE, oldest dropped); null: it does not compile. */
const compiled = new Map<string, RE2JS | null>();
const REGEX_CACHE_SIZE = 500;

function regexOf(value: string): RE2JS | null {
  let regex = compiled.get(value);
  if (regex === undefined) {
    try {
      regex = compileRegex(value, true);
    } catch {
      regex = null; // refused at subscription; one stored before never matches
    }
    if (compiled.size >= REGEX_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
    compiled.set(value, regex);
  }
  return regex;
}

export const RULE_OPERATORS = [
  'equal',
  'notEqual',
  'greaterThan',
  'lessThan',
  'in',
  'regex',
  'isEmpty',
  'notEmpty',
] as const;

export function rulesHold(rules: readonly PayloadRule[], payload: unknown): boolean {
  return rules.every((rule) => {
    const actual = valueAt(payload, dotPath(rule.field));
    const expected = rule.value === undefined ? '' : String(rule.value);
    switch (rule.operator) {
      case 'equal':
        return asText(actual) === expected;
      case 'notEqual':
        return asText(actual) !== expected;
      case 'greaterThan':
        return Number(asText(actual)) > Number(expected);
      case 'lessThan':
        return Number(asText(actual)) < Number(expected);
      case 'in':
        return expected
          .split(',')
          .map((v) => v.trim())
          .includes(asText(actual));
      case 'regex':
        return typeof actual === 'string' || typeof actual === 'number'
          ? (regexOf(expected)?.matcher(String(actual)).find() ?? false)
          : false;
      case 'isEmpty':
        return isEmpty(actual);
      case 'notEmpty':
        return !isEmpty(actual);
      default:
        return false; // refused at subscription; a hook with an unknown operator is never called
    }
  });
}

export function selectFields(fields: readonly PayloadField[], payload: unknown): unknown {
  if (fields.length === 0 || fields.some(isWholePayloadField)) return payload;
  const out: Json = {};
  // Only objects made here are written into: a value copied from the payload is never changed.
  const made = new Set<object>([out]);
  for (const field of fields) {
    const source = field.source ?? field.name;
    // Refused at subscription; one stored before is skipped.
    if (pathProblem(source, '.') || pathProblem(field.name, '.')) continue;
    const value = pickField(payload, source);
    if (value === undefined) continue;
    placeField(out, field.name, value, made);
  }
  return out;
}

/**
 * Adobe's field forms beyond a plain dot path (kept apart from the path walking above):
 *   - `*` (io_events.xml, `--fields='*'`): the whole payload;
 *   - `items[].sku`: `sku` of every element of the array `items` (as an array of objects in the
 *     sent payload: `{items: [{sku}, {sku}]}`); `[]` may appear more than once.
 */
export function isWholePayloadField(field: { name: string; source?: string }): boolean {
  return field.name === '*' && (field.source === undefined || field.source === '*');
}

/** The value at a field path, mapping over each `[]` array. */
export function pickField(root: unknown, path: string): unknown {
  const at = path.indexOf('[]');
  if (at < 0) return valueAt(root, dotPath(path));
  const list = valueAt(root, dotPath(path.slice(0, at)));
  if (!Array.isArray(list)) return undefined;
  const rest = path.slice(at + 2).replace(/^\./, '');
  return rest === '' ? list : list.map((element) => pickField(element, rest));
}

/**
 * Sets `value` at a field path of `out`, spreading an array over each `[]` (elements merged by
 * index). Only objects and arrays made here (`made`) are written into, and only through their own
 * properties: a value copied from the payload is never changed (`a` and `a.b` both named: the
 * first one holds), and a forbidden segment (pathProblem) places nothing.
 */
export function placeField(out: Json, path: string, value: unknown, made: Set<object> = new Set([out])): void {
  const at = path.indexOf('[]');
  const head = dotPath(at < 0 ? path : path.slice(0, at));
  if (head.length === 0 || head.some(isForbiddenSegment)) return;
  let cursor = out;
  for (const part of head.slice(0, -1)) {
    let next = ownChild(cursor, part);
    if (next === undefined) {
      next = {};
      made.add(next as object);
      cursor[part] = next;
    }
    if (next === null || typeof next !== 'object' || Array.isArray(next) || !made.has(next)) return;
    cursor = next as Json;
  }
  const last = head[head.length - 1]!;
  if (at < 0) {
    cursor[last] = value;
    return;
  }
  if (!Array.isArray(value)) return;
  const rest = path.slice(at + 2).replace(/^\./, '');
  if (rest === '') {
    cursor[last] = value;
    return;
  }
  let target = ownChild(cursor, last);
  if (target === undefined) {
    target = [];
    made.add(target as object);
    cursor[last] = target;
  }
  if (!Array.isArray(target) || !made.has(target)) return;
  const list: unknown[] = target;
  value.forEach((element, index) => {
    let slot: unknown = list[index];
    if (slot === undefined) {
      slot = {};
      made.add(slot as object);
      list[index] = slot;
    }
    if (slot === null || typeof slot !== 'object' || Array.isArray(slot) || !made.has(slot)) return;
    if (element !== undefined) placeField(slot as Json, rest, element, made);
  });
}
