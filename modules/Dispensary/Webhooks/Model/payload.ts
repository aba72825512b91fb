/**
 * What a webhook's answer does, as Adobe's webhooks define it: its operations change the payload
 * at a `/`-separated path: `add` (appends to an array, else sets), `replace`, `remove`. A path
 * naming `__proto__`, `constructor`, `prototype` or an inherited name makes the answer invalid
 * (the hook has failed), and walking a path never follows an inherited property: the path helpers
 * are the ones rules and fields use (Dispensary_OutOfProcessExtensibility's Api/payloadFilters.ts).
 */
import {
  isForbiddenSegment,
  ownChild,
  pathProblem,
  slashPath,
  valueAt,
} from '../../OutOfProcessExtensibility/Api/payloadFilters.js';

type Json = Record<string, unknown>;

export interface Operation {
  op: 'success' | 'exception' | 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
  message?: string;
  class?: string;
}

const OPS = new Set(['success', 'exception', 'add', 'replace', 'remove']);
/** Deepest value an operation may carry (the request body's own bound is of the same order). */
const MAX_VALUE_DEPTH = 64;

/** Whether a value is at most MAX_VALUE_DEPTH deep and has no `__proto__` key at any depth (walked without recursion). */
function isPlainValue(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_VALUE_DEPTH) return false;
    for (const key of Object.keys(item)) {
      if (key === '__proto__') return false;
      pending.push([(item as Json)[key], depth + 1]);
    }
  }
  return true;
}

/**
 * The answer's operations, or null when it is not a valid answer (garbage): not JSON, an unknown
 * operation, a path that is empty or leaves the payload's own data (pathProblem), a value deeper
 * than MAX_VALUE_DEPTH or with a `__proto__` key. The hook has then failed.
 */
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
    const { op: name, path, value } = op as Operation;
    if (name === 'add' || name === 'replace' || name === 'remove') {
      if (typeof path !== 'string' || pathProblem(path, '/') !== null) return null;
      if (!isPlainValue(value)) return null;
    }
  }
  return list as Operation[];
}

/** `0`, `1`, ... as an array index; null for anything else. */
function arrayIndex(segment: string): number | null {
  return /^(0|[1-9][0-9]{0,8})$/.test(segment) ? Number(segment) : null;
}

/**
 * Applies add/replace/remove to `root` in place, walking own properties only. Refused (false): a
 * path outside `allowedRoots`, one whose parent is not in the payload, an inherited name, an array
 * position that is not an index within (or just after) the array.
 */
export function applyOperation(root: Json, operation: Operation, allowedRoots: readonly string[]): boolean {
  const parts = slashPath(operation.path ?? '');
  if (parts.length === 0 || parts.some(isForbiddenSegment) || !allowedRoots.includes(parts[0]!)) return false;
  const parent = valueAt(root, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (parent === null || typeof parent !== 'object') return false;
  // A copy: the same operations may be applied again from the ttl cache, and a later change to
  // this payload must not reach into the cached answer.
  const value = structuredClone(operation.value);
  if (Array.isArray(parent)) {
    const index = arrayIndex(last);
    if (index === null || index > parent.length || (operation.op === 'remove' && index === parent.length)) return false;
    switch (operation.op) {
      case 'add': {
        const target: unknown = parent[index];
        if (Array.isArray(target)) target.push(value);
        else parent[index] = value;
        return true;
      }
      case 'replace':
        parent[index] = value;
        return true;
      case 'remove':
        parent.splice(index, 1);
        return true;
      default:
        return true;
    }
  }
  const container = parent as Json;
  switch (operation.op) {
    case 'add': {
      const target = ownChild(container, last);
      if (Array.isArray(target)) target.push(value);
      else container[last] = value;
      return true;
    }
    case 'replace':
      container[last] = value;
      return true;
    case 'remove':
      if (Object.hasOwn(container, last)) delete container[last];
      return true;
    default:
      return true;
  }
}
