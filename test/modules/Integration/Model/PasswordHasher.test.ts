import { expect } from 'chai';
import pino from 'pino';
import type { Logger } from '../../../../app/framework/index.js';
import { PasswordHasher } from '../../../../modules/Dispensary/Integration/Model/PasswordHasher.js';
import { captureLogger } from '../support.js';

const silent = pino({ level: 'silent' }) as unknown as Logger;

/** A real hasher that also records the scrypt parameters of each derivation it runs. */
class RecordingHasher extends PasswordHasher {
  readonly derived: { n: number; r: number; p: number; saltLength: number }[] = [];

  protected override derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
    this.derived.push({ n, r, p, saltLength: salt.length });
    return super.derive(password, salt, n, r, p);
  }
}

const hasher = (scryptCost: number, logger: Logger = silent) =>
  new RecordingHasher({ passwordHashing: { scryptCost, concurrency: 2, queue: 16 } }, logger);

describe('Integration: PasswordHasher', () => {
  describe('hash and verify', () => {
    it('should store scrypt$N$r$p$salt$key with a fresh salt, and verify the right password only', async () => {
      const h = hasher(1024);
      const one = await h.hash('correct horse');
      const two = await h.hash('correct horse');
      expect(one).to.match(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
      expect(one).to.not.equal(two);
      expect(await h.verify('correct horse', one)).to.deep.equal({ ok: true, needsRehash: false });
      expect(await h.verify('correct horse', two)).to.deep.equal({ ok: true, needsRehash: false });
      expect(await h.verify('Correct horse', one)).to.deep.equal({ ok: false, needsRehash: false });
      expect(await h.verify('', one)).to.deep.equal({ ok: false, needsRehash: false });
    });

    it('should verify a password of multi-byte characters exactly', async () => {
      const h = hasher(1024);
      const stored = await h.hash('pässwörd ✓');
      expect((await h.verify('pässwörd ✓', stored)).ok).to.equal(true);
      expect((await h.verify('passwörd ✓', stored)).ok).to.equal(false);
    });
  });

  describe('needsRehash', () => {
    it('should ask for a new hash when a right password was stored with another N, never a wrong one', async () => {
      const old = await hasher(1024).hash('secret');
      const today = hasher(2048);
      expect(await today.verify('secret', old)).to.deep.equal({ ok: true, needsRehash: true });
      expect(await today.verify('wrong', old)).to.deep.equal({ ok: false, needsRehash: false });
      // The stored hash is verified with its own parameters, not today's.
      expect(today.derived.map((d) => d.n)).to.deep.equal([1024, 1024]);
      const rehashed = await today.hash('secret');
      expect(await today.verify('secret', rehashed)).to.deep.equal({ ok: true, needsRehash: false });
    });

    it("should ask for a new hash when r or p differ from today's (8 and 1)", async () => {
      const h = hasher(1024);
      const stored = await h.hash('secret');
      const [, n, , , salt] = stored.split('$');
      // The same password hashed by a hasher that used r=4: built with Node's scrypt, as such a hasher would.
      const { scryptSync } = await import('node:crypto');
      const key = scryptSync('secret', Buffer.from(salt!, 'base64'), 64, { N: Number(n), r: 4, p: 1 });
      const weaker = `scrypt$${n}$4$1$${salt}$${key.toString('base64')}`;
      expect(await h.verify('secret', weaker)).to.deep.equal({ ok: true, needsRehash: true });
    });
  });

  describe('the same work whatever is stored', () => {
    it("should derive once at today's cost for an unknown user (null), and answer not ok", async () => {
      const h = hasher(1024);
      expect(await h.verify('anything', null)).to.deep.equal({ ok: false, needsRehash: false });
      expect(h.derived).to.deep.equal([{ n: 1024, r: 8, p: 1, saltLength: 16 }]);
    });

    it("should refuse, not throw on, malformed or too costly stored hashes, at today's cost", async () => {
      const h = hasher(1024);
      const good = await h.hash('secret');
      const [, , , , salt, key] = good.split('$');
      const malformed = [
        '',
        'plain-text-password',
        `bcrypt$1024$8$1$${salt}$${key}`,
        `scrypt$1000$8$1$${salt}$${key}`, // N not a power of two
        `scrypt$${2 ** 21}$8$1$${salt}$${key}`, // N above the 2^20 a stored hash may ask for
        `scrypt$1024$64$2$${salt}$${key}`, // r*p above 64
        `scrypt$1024$0$1$${salt}$${key}`,
        `scrypt$-1024$8$1$${salt}$${key}`,
        `scrypt$1024$8$1$$${key}`,
        `scrypt$1024$8$1$${salt}$`,
      ];
      h.derived.length = 0;
      for (const stored of malformed) {
        expect(await h.verify('secret', stored), stored).to.deep.equal({ ok: false, needsRehash: false });
      }
      expect(h.derived.every((d) => d.n === 1024 && d.r === 8 && d.p === 1)).to.equal(true);
      expect(h.derived).to.have.length(malformed.length);
    });

    it('should answer not ok, not throw, for a stored key of another length (timingSafeEqual)', async () => {
      const h = hasher(1024);
      const good = await h.hash('secret');
      const parts = good.split('$');
      const shortKey = Buffer.from(parts[5]!, 'base64').subarray(0, 32).toString('base64');
      const truncated = [...parts.slice(0, 5), shortKey].join('$');
      expect(await h.verify('secret', truncated)).to.deep.equal({ ok: false, needsRehash: false });
    });
  });

  describe('the cost setting', () => {
    it('should warn when PASSWORD_SCRYPT_COST is below OWASP guidance, and not at 2^17', () => {
      const low = captureLogger();
      hasher(1024, low.logger);
      expect(low.lines.map((l) => [l.msg, l.scryptCost])).to.deep.equal([
        ['PASSWORD_SCRYPT_COST is below OWASP guidance (131072)', 1024],
      ]);
      const ok = captureLogger();
      hasher(2 ** 17, ok.logger);
      expect(ok.lines).to.deep.equal([]);
    });
  });
});
