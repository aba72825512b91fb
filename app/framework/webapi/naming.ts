/** camelCase <-> snake_case, as Magento's service input/output processors use them. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const HAS_UPPER = /[A-Z]/;

/** Output keys in snake_case. Plain data is walked once; keys already in snake_case are kept. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    out[HAS_UPPER.test(key) ? toSnakeCase(key) : key] = snakeCaseKeys(item);
  }
  return out;
}
