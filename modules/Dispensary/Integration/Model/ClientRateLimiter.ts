import { isIPv6 } from 'node:net';
import {
  FrameworkServices,
  inject,
  injectable,
  type AdminLoginSettings,
  type Clock,
  type SharedRateLimiter,
  type SharedState,
} from '#framework';

interface Bucket {
  tokens: number;
  at: number;
}

/** Addresses remembered at most; the least recently seen are dropped first. */
const MAX_ADDRESSES = 50_000;

/**
 * The per-client-address limit of the admin token route. With REDIS_URL set it is one limit for
 * the whole deployment: `rateLimit` requests per address per `rateWindowSeconds` window, counted
 * in Redis by every process (rate-limiter-flexible), and in this process's memory while Redis is
 * down (see SharedState). Without Redis it is a token bucket per address in memory, per process
 * (several processes behind a balancer each allow the limit): `rateLimit` requests at once,
 * refilled evenly over the window. Never the database: a shared counter there would put a write
 * on every request of the flood it is meant to absorb. IPv6 clients are keyed by their /64, the
 * block one host usually holds.
 */
@injectable()
export class ClientRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly refillPerMs: number;
  private readonly shared: SharedRateLimiter | null;

  constructor(
    @inject(FrameworkServices.DeploymentConfig) config: { readonly adminLogin: AdminLoginSettings },
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
    @inject(FrameworkServices.SharedState) state: SharedState,
  ) {
    this.capacity = config.adminLogin.rateLimit;
    this.refillPerMs = config.adminLogin.rateLimit / (config.adminLogin.rateWindowSeconds * 1000);
    this.shared =
      state.shared && this.capacity > 0
        ? state.rateLimiter({
            name: 'admin_token',
            points: this.capacity,
            windowSeconds: config.adminLogin.rateWindowSeconds,
          })
        : null;
  }

  /** Takes one request from the address's allowance: null when allowed, else the seconds to wait. */
  async take(address: string | undefined): Promise<number | null> {
    if (this.capacity === 0 || address === undefined) return null;
    const key = clientKey(address);
    if (this.shared) return this.shared.take(key);
    const now = this.clock.now().getTime();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.refillPerMs);
    bucket.at = now;
    this.buckets.delete(key); // re-inserted last: the map's order is least recently seen first
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return (1 - bucket.tokens) / this.refillPerMs / 1000;
  }
}

/** IPv4 (also when mapped into IPv6) as is; IPv6 by its first 64 bits. */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
