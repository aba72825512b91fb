/**
 * What a hook is sent and what its answer does, as Adobe's webhooks define them:
 *   - `rules` (all must hold) decide whether the hook is called; a rule's `field` is a dot path
 *     into the payload;
 *   - `fields` choose what is sent: each `{name, source}` copies the value at `source` (a dot path,
 *     `name` when absent) to `name` (a dot path) of the sent object; `items[].sku` maps over an
 *     array and `*` sends the whole payload (pickField, placeField);
 *   - the answer's operations change the payload at a `/`-separated path: `add` (appends to an
 *     array, else sets), `replace`, `remove`.
 */
import type { WebhookData } from '../Api/WebhookManagementInterface.js';

type Json = Record<string, unknown>;

function valueAt(root: unknown, parts: readonly string[]): unknown {
  let cursor = root;
  for (const part of parts) {
    if (cursor === null || typeof cursor !== 'object') return undefined;
    cursor = (cursor as Json)[part];
  }
  return cursor;
}

export const dotPath = (path: string): string[] => path.split('.').filter((part) => part !== '');
export const slashPath = (path: string): string[] => path.split('/').filter((part) => part !== '');

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && Object.keys(value as object).length === 0)
  );
}

/** `/pattern/flags` (PHP's preg style, as Adobe's docs write them) or a bare pattern. */
function regex(value: string): RegExp {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(value);
  return match ? new RegExp(match[1]!, match[2]!.replace(/[^imsu]/g, '')) : new RegExp(value);
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

export function rulesHold(rules: WebhookData['rules'], payload: unknown): boolean {
  return rules.every((rule) => {
    const actual = valueAt(payload, dotPath(rule.field));
    const expected = rule.value === undefined ? '' : String(rule.value);
    switch (rule.operator) {
      case 'equal':
        return String(actual) === expected;
      case 'notEqual':
        return String(actual) !== expected;
      case 'greaterThan':
        return Number(actual) > Number(expected);
      case 'lessThan':
        return Number(actual) < Number(expected);
      case 'in':
        return expected
          .split(',')
          .map((v) => v.trim())
          .includes(String(actual));
      case 'regex':
        return typeof actual === 'string' || typeof actual === 'number' ? regex(expected).test(String(actual)) : false;
      case 'isEmpty':
        return isEmpty(actual);
      case 'notEmpty':
        return !isEmpty(actual);
      default:
        return false; // refused at subscription; a hook with an unknown operator is never called
    }
  });
}

export function selectFields(fields: WebhookData['fields'], payload: unknown): unknown {
  if (fields.length === 0 || fields.some(isWholePayloadField)) return payload;
  const out: Json = {};
  for (const field of fields) {
    const value = pickField(payload, field.source ?? field.name);
    if (value === undefined) continue;
    placeField(out, field.name, value);
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

/** Sets `value` at a field path of `out`, spreading an array over each `[]` (elements merged by index). */
export function placeField(out: Json, path: string, value: unknown): void {
  const at = path.indexOf('[]');
  const head = dotPath(at < 0 ? path : path.slice(0, at));
  if (head.length === 0) return;
  let cursor = out;
  for (const part of head.slice(0, -1)) {
    const next = cursor[part];
    cursor = (next !== null && typeof next === 'object' && !Array.isArray(next) ? next : (cursor[part] = {})) as Json;
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
  const target = Array.isArray(cursor[last]) ? (cursor[last] as unknown[]) : (cursor[last] = []);
  value.forEach((element, index) => {
    const slot = target[index];
    const into = (
      slot !== null && typeof slot === 'object' && !Array.isArray(slot) ? slot : (target[index] = {})
    ) as Json;
    if (element !== undefined) placeField(into, rest, element);
  });
}

export interface Operation {
  op: 'success' | 'exception' | 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
  message?: string;
  class?: string;
}

const OPS = new Set(['success', 'exception', 'add', 'replace', 'remove']);

/** The answer's operations, or null when it is not a valid answer (garbage). */
export function parseOperations(body: string): Operation[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length === 0) return null;
  for (const op of list) {
    if (op === null || typeof op !== 'object' || !OPS.has((op as Operation).op)) return null;
    const { op: name, path } = op as Operation;
    if (
      (name === 'add' || name === 'replace' || name === 'remove') &&
      (typeof path !== 'string' || slashPath(path).length === 0)
    )
      return null;
  }
  return list as Operation[];
}

/** Applies add/replace/remove to `root` in place. A path outside `allowedRoots` is refused (false). */
export function applyOperation(root: Json, operation: Operation, allowedRoots: readonly string[]): boolean {
  const parts = slashPath(operation.path ?? '');
  if (!allowedRoots.includes(parts[0]!)) return false;
  const parent = valueAt(root, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (parent === null || typeof parent !== 'object') return false;
  const container = parent as Json;
  switch (operation.op) {
    case 'add': {
      const target = container[last];
      if (Array.isArray(target)) target.push(operation.value);
      else container[last] = operation.value;
      return true;
    }
    case 'replace':
      container[last] = operation.value;
      return true;
    case 'remove':
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete container[last];
      return true;
    default:
      return true;
  }
}
