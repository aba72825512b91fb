/**
 * State that must hold per deployment, not per process: rate limits and "at most every N
 * seconds" claims, kept in Redis (REDIS_URL) so every API process on every host counts together.
 * Without REDIS_URL there is nothing to share and callers keep their own in-memory state, as a
 * single process always did.
 *
 * Redis is an aid, never a dependency of a request: a command that fails or takes longer than
 * `commandTimeoutMs` makes the limiter answer from its in-memory insurance limiter
 * (rate-limiter-flexible's `insuranceLimiter`), and the state is marked down (logged once). While
 * down, limits are answered from memory at once (no request waits on a dead link) and a PING
 * every `retryIntervalMs` finds Redis again; then limits are shared again (logged once).
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type * as RateLimiterFlexible from 'rate-limiter-flexible';
import type { Logger } from '../logging/logger.js';

// Loaded as used: ioredis and the Redis limiter only with REDIS_URL, and the two limiters from
// their own files (the package's index loads every store it supports: MongoDB, DynamoDB, etcd...).
// Every process starts without REDIS_URL in the tests and on a single host.
const require = createRequire(import.meta.url);
const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof RateLimiterFlexible.RateLimiterMemory;
const RateLimiterRes =
  require('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof RateLimiterFlexible.RateLimiterRes;
type RateLimiterRes = RateLimiterFlexible.RateLimiterRes;

export interface RedisSettings {
  /** REDIS_URL (`redis://host:port/db`); null: nothing is shared, limits stay per process. */
  readonly url: string | null;
  /** REDIS_KEY_PREFIX: the start of every key, so deployments sharing a Redis stay apart. */
  readonly keyPrefix: string;
  /** REDIS_COMMAND_TIMEOUT_MS: longest wait for one Redis command before memory answers instead. */
  readonly commandTimeoutMs: number;
  /** REDIS_CONNECT_TIMEOUT_MS: longest wait for a TCP connection to Redis. */
  readonly connectTimeoutMs: number;
}

export interface RateLimitOptions {
  /** A name of the limit's own, part of every key. */
  readonly name: string;
  /** Requests allowed per key per window. */
  readonly points: number;
  readonly windowSeconds: number;
}

/** A fixed-window limit per key: `take` answers null when allowed, else the seconds to wait. */
export interface SharedRateLimiter {
  take(key: string): Promise<number | null>;
}

/** How often a down Redis is probed again. */
const RETRY_INTERVAL_MS = 1000;

export class SharedState {
  private readonly redis: Redis | null;
  private down = false;
  private probe?: NodeJS.Timeout;

  constructor(
    private readonly settings: RedisSettings,
    private readonly logger: Logger,
  ) {
    this.redis = settings.url ? SharedState.connect(settings.url, settings) : null;
    // ioredis logs unhandled 'error' events to the console; here they only mark the state down.
    this.redis?.on('error', (error: unknown) => this.markDown(error));
  }

  private static connect(url: string, settings: RedisSettings): Redis {
    // The class is taken out first: TypeScript 7, the build's compiler, drops the parentheses of
    // `new (require('ioredis') as T).Redis(...)` and emits `new require('ioredis').Redis(...)`.
    const { Redis: RedisClient } = require('ioredis') as typeof import('ioredis');
    return new RedisClient(url, {
      keyPrefix: settings.keyPrefix,
      commandTimeout: settings.commandTimeoutMs,
      connectTimeout: settings.connectTimeoutMs,
      // A command while disconnected fails at once (memory answers) rather than waiting in a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // ioredis reconnects by itself; at most one attempt a second.
      retryStrategy: (times: number) => Math.min(times * 200, RETRY_INTERVAL_MS),
      keepAlive: 5000,
    });
  }

  /** Whether limits are shared (REDIS_URL set). */
  get shared(): boolean {
    return this.redis !== null;
  }

  /** For /health: null when not configured; else whether Redis answers a PING in time. */
  async status(): Promise<'up' | 'down' | null> {
    if (!this.redis) return null;
    try {
      await this.redis.ping();
      this.markUp();
      return 'up';
    } catch (error) {
      this.markDown(error);
      return 'down';
    }
  }

  rateLimiter(options: RateLimitOptions): SharedRateLimiter {
    const common = { keyPrefix: `limit:${options.name}`, points: options.points, duration: options.windowSeconds };
    const memory = new RateLimiterMemory(common);
    const redis = this.redis;
    if (!redis) return { take: (key) => answer(memory.consume(key)) };
    const RateLimiterRedis =
      require('rate-limiter-flexible/lib/RateLimiterRedis.js') as typeof RateLimiterFlexible.RateLimiterRedis;
    const shared = new RateLimiterRedis({ ...common, storeClient: redis, insuranceLimiter: memory });
    return {
      take: async (key) => {
        if (this.down) return answer(memory.consume(key));
        // The insurance limiter answers a failed command; a timeout shows as a slow answer, which
        // only the command timeout bounds. Either way the state is marked down for the next ones.
        const started = performance.now();
        const result = await answer(shared.consume(key));
        if (performance.now() - started >= this.settings.commandTimeoutMs)
          this.markDown(new Error('Redis command timed out'));
        return result;
      },
    };
  }

  /**
   * Claims `name` for `intervalSeconds` across the deployment (SET NX EX): true for the one
   * process that got it. null when there is no shared state (no REDIS_URL, or Redis is down):
   * the caller decides on its own timer.
   */
  async claim(name: string, intervalSeconds: number): Promise<boolean | null> {
    if (!this.redis || this.down) return null;
    try {
      return (await this.redis.set(`claim:${name}`, String(process.pid), 'EX', intervalSeconds, 'NX')) === 'OK';
    } catch (error) {
      this.markDown(error);
      return null;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.probe);
    this.probe = undefined;
    if (!this.redis) return;
    this.redis.removeAllListeners('error');
    this.redis.on('error', () => undefined);
    this.redis.disconnect();
  }

  private markDown(error: unknown): void {
    if (this.down || !this.redis) return;
    this.down = true;
    this.logger.warn({ err: error }, "Redis does not answer: rate limits fall back to this process's memory");
    this.probe = setInterval(() => {
      this.redis!.ping().then(
        () => this.markUp(),
        () => undefined,
      );
    }, RETRY_INTERVAL_MS);
    this.probe.unref();
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    clearInterval(this.probe);
    this.probe = undefined;
    this.logger.info('Redis answers again: rate limits are shared again');
  }
}

/** rate-limiter-flexible rejects with a RateLimiterRes when the points are used up. */
async function answer(consumed: Promise<RateLimiterRes>): Promise<number | null> {
  try {
    await consumed;
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw error;
  }
}
