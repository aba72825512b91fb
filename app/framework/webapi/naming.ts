/** camelCase <-> snake_case, as Magento's service input/output processors use them. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const HAS_UPPER = /[A-Z]/;

/**
 * Performance: true when snakeCaseKeys() would change anything (a key with an upper-case letter,
 * an undefined or function value in an object). Walks without allocating; most results (plain
 * snake_case data, as the dispensary's are) need no copy at all.
 */
function needsSnakeCopy(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (needsSnakeCopy(item)) return true;
    return false;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || HAS_UPPER.test(key) || needsSnakeCopy(item)) return true;
  }
  return false;
}

/**
 * Output keys in snake_case. Plain data is walked once; keys already in snake_case are kept.
 * A value that needs no change comes back as it is (deep-equal either way; not a fresh copy).
 */
export function snakeCaseKeys(value: unknown): unknown {
  return needsSnakeCopy(value) ? copySnakeCase(value) : value;
}

function copySnakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copySnakeCase);
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    out[HAS_UPPER.test(key) ? toSnakeCase(key) : key] = copySnakeCase(item);
  }
  return out;
}
