/**
 * Parsing of deployment settings. DeploymentConfig.ts reads the environment and hands the raw
 * strings here; a value that does not parse stops start-up naming the variable.
 */
import { availableParallelism } from 'node:os';
import { ConfigError } from '../../framework/xml/xml.js';

/** A whole number ≥ min; unset or empty gives the fallback. */
export function wholeNumber(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  }
  return value;
}

/** scrypt's N: a power of two from 2^10 (for tests) up to 2^20. */
export function scryptCost(name: string, raw: string | undefined, fallback: number): number {
  const value = wholeNumber(name, raw, fallback, 1024);
  if (value > 2 ** 20 || (value & (value - 1)) !== 0)
    throw new ConfigError(`${name} must be a power of two from 1024 to 1048576, got "${raw}"`);
  return value;
}

/**
 * TRUST_PROXY, handed to Express's `trust proxy`: unset, `0` or `false` trusts no proxy (the client
 * address is the socket's); `true` trusts every X-Forwarded-For hop; a number trusts that many
 * hops; anything else is a comma-separated list of proxy addresses or subnets (`loopback`,
 * `10.0.0.0/8`, ...).
 */
export function trustProxy(raw: string | undefined): boolean | number | string {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** Half the CPUs, at least one: the other half keeps serving requests while passwords hash. */
export function defaultHashConcurrency(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/** Standard Webhooks' recommended retry schedule (after the first attempt): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_EVENT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A comma-separated list of durations (`500ms`, `5s`, `5m`, `2h`, `1d`): the delays before each
 * retry, in ms. At least one, each at most 7 days.
 */
export function durationList(name: string, raw: string | undefined, fallback: string): number[] {
  const text = raw === undefined || raw.trim() === '' ? fallback : raw;
  const delays = text.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : Number.NaN;
    if (!Number.isSafeInteger(ms) || ms > 7 * 86_400_000)
      throw new ConfigError(
        `${name} must be a comma-separated list of durations such as 5s,5m,2h (units ms, s, m, h, d; each at most 7d), got "${text}"`,
      );
    return ms;
  });
  if (delays.length > 100) throw new ConfigError(`${name} has more than 100 retries, got "${text}"`);
  return delays;
}

/** EVENT_RETRY_SCHEDULE; the settings it replaced are refused, so that a deployment setting them learns why they no longer apply. */
export function eventRetrySchedule(env: Record<string, string | undefined>): number[] {
  for (const old of ['EVENT_MAX_ATTEMPTS', 'EVENT_RETRY_BASE_MS'])
    if (env[old] !== undefined && env[old] !== '')
      throw new ConfigError(
        `${old} is no longer read: set EVENT_RETRY_SCHEDULE (the delays before each retry, default ${DEFAULT_EVENT_RETRY_SCHEDULE}) instead`,
      );
  return durationList('EVENT_RETRY_SCHEDULE', env.EVENT_RETRY_SCHEDULE, DEFAULT_EVENT_RETRY_SCHEDULE);
}
