/**
 * Parsing of deployment settings. DeploymentConfig.ts reads the environment and hands the raw
 * strings here; a value that does not parse stops start-up naming the variable.
 */
import { availableParallelism } from 'node:os';
import { ConfigError } from '../framework/xml/xml.js';

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
