import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { FrameworkServices, inject, injectable, type Logger, type PasswordHashingSettings } from '#framework';
import { HashingSlots } from './HashingSlots.js';

export interface PasswordCheck {
  readonly ok: boolean;
  /** The password was right and the stored hash is weaker than today's setting: store a new one. */
  readonly needsRehash: boolean;
}

interface StoredHash {
  readonly n: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly key: Buffer;
}

// OWASP's password storage guidance for scrypt: N=2^17, r=8 (1 KiB blocks), p=1. N is a setting.
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
/** The largest N a stored hash may ask for (a hash is data: it must not make us allocate gigabytes). */
const MAX_STORED_N = 2 ** 20;

/**
 * Passwords as `scrypt$N$r$p$salt$key` (salt and key base64). Hashes made with other parameters
 * (the N=2^14 ones of earlier versions) still verify, with their own parameters, and report
 * `needsRehash` so the login stores a new one. Every derivation takes a slot of HashingSlots.
 */
@injectable()
export class PasswordHasher {
  readonly slots: HashingSlots;
  private readonly cost: number;
  /** Verified against when the user does not exist, so both cases do the same work. */
  private readonly dummy: StoredHash;

  constructor(
    @inject(FrameworkServices.DeploymentConfig) config: { readonly passwordHashing: PasswordHashingSettings },
    @inject(FrameworkServices.Logger) logger: Logger,
  ) {
    const settings = config.passwordHashing;
    this.cost = settings.scryptCost;
    this.slots = new HashingSlots(settings.concurrency, settings.queue);
    this.dummy = { n: this.cost, r: R, p: P, salt: Buffer.alloc(16), key: Buffer.alloc(KEY_LENGTH) };
    if (this.cost < 2 ** 17)
      logger.warn({ scryptCost: this.cost }, 'PASSWORD_SCRYPT_COST is below OWASP guidance (131072)');
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.derive(password, salt, this.cost, R, P);
    return `scrypt$${this.cost}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  /** Checks a password against a stored hash, or against nothing (an unknown user) at the same cost. */
  async verify(password: string, stored: string | null): Promise<PasswordCheck> {
    const parsed = stored === null ? null : parse(stored);
    const target = parsed ?? this.dummy;
    const key = await this.derive(password, target.salt, target.n, target.r, target.p);
    const ok = parsed !== null && key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
    return { ok, needsRehash: ok && (target.n !== this.cost || target.r !== R || target.p !== P) };
  }

  protected derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
    return this.slots.run(
      () =>
        new Promise<Buffer>((resolve, reject) =>
          // maxmem: scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below 2^17.
          scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r }, (err, key) =>
            err ? reject(err) : resolve(key),
          ),
        ),
    );
  }
}

function parse(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return null;
  const [N, rr, pp] = [Number(n), Number(r), Number(p)];
  const valid = (x: number) => Number.isSafeInteger(x) && x > 0;
  if (!valid(N) || !valid(rr) || !valid(pp) || N > MAX_STORED_N || (N & (N - 1)) !== 0 || rr * pp > 64) return null;
  return { n: N, r: rr, p: pp, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}
