/**
 * What a hook is sent and what its answer does, as Adobe's webhooks define them:
 *   - `rules` (all must hold) decide whether the hook is called; a rule's `field` is a dot path
 *     into the payload;
 *   - `fields` choose what is sent: each `{name, source}` copies the value at `source` (a dot path,
 *     `name` when absent) to `name` (a dot path) of the sent object;
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
  if (fields.length === 0) return payload;
  const out: Json = {};
  for (const field of fields) {
    const value = valueAt(payload, dotPath(field.source ?? field.name));
    if (value === undefined) continue;
    const parts = dotPath(field.name);
    let cursor = out;
    for (const part of parts.slice(0, -1)) cursor = (cursor[part] ??= {}) as Json;
    cursor[parts[parts.length - 1]!] = value;
  }
  return out;
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
