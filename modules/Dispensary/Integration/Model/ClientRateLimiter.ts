import { isIPv6 } from 'node:net';
import { FrameworkServices, inject, injectable, type AdminLoginSettings, type Clock } from '#framework';

interface Bucket {
  tokens: number;
  at: number;
}

/** Addresses remembered at most; the least recently seen are dropped first. */
const MAX_ADDRESSES = 50_000;

/**
 * The per-client-address limit of the admin token route: a token bucket per address, `rateLimit`
 * requests at once and refilled evenly over `rateWindowSeconds`. Kept in memory, per server
 * process (several processes behind a balancer each allow the limit): a shared counter would put
 * a database write on every request of the flood it is meant to absorb. IPv6 clients are keyed by
 * their /64, the block one host usually holds.
 */
@injectable()
export class ClientRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly refillPerMs: number;

  constructor(
    @inject(FrameworkServices.DeploymentConfig) config: { readonly adminLogin: AdminLoginSettings },
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
  ) {
    this.capacity = config.adminLogin.rateLimit;
    this.refillPerMs = config.adminLogin.rateLimit / (config.adminLogin.rateWindowSeconds * 1000);
  }

  /** Takes one request from the address's bucket: null when allowed, else the seconds to wait. */
  take(address: string | undefined): number | null {
    if (this.capacity === 0 || address === undefined) return null;
    const key = clientKey(address);
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
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}
