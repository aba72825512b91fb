/**
 * The answers kept for a hook's `ttl`: by a SHA-256 of the hook, its URL and the payload sent
 * (never the payload itself), and at most ANSWER_CACHE_BYTES in all, counted as each answer's
 * JSON size plus its key; the oldest answers go first when a new one needs the room, and an answer
 * larger than the whole bound is not kept.
 */
import { createHash } from 'node:crypto';

/** What the kept answers may take in all. */
export const ANSWER_CACHE_BYTES = 4 * 1024 * 1024;

interface Entry<T> {
  readonly until: number;
  readonly value: T;
  readonly bytes: number;
}

export class AnswerCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private total = 0;

  constructor(
    readonly maxBytes = ANSWER_CACHE_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key of what was sent: hex SHA-256 of the parts (each length-prefixed, so no two lists collide). */
  static key(...parts: readonly string[]): string {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
    return hash.digest('hex');
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.value;
    this.drop(key, entry);
    return undefined;
  }

  /** Keeps `value` (`bytes`: its JSON size) for `ttlSeconds`. */
  set(key: string, value: T, ttlSeconds: number, bytes: number): void {
    const existing = this.entries.get(key);
    if (existing) this.drop(key, existing);
    const size = bytes + key.length;
    if (size > this.maxBytes) return;
    for (const [oldest, entry] of this.entries) {
      if (this.total + size <= this.maxBytes) break;
      this.drop(oldest, entry);
    }
    this.entries.set(key, { until: this.now() + ttlSeconds * 1000, value, bytes: size });
    this.total += size;
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.total;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  private drop(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.total -= entry.bytes;
  }
}
