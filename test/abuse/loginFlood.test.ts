/**
 * Abuse: anonymous login floods against POST /rest/V1/integration/admin/token, on loopback,
 * bounded (64 requests at a time). What is asserted is behaviour, never speed (the latency under
 * a flood is measured by `npm run bench -- --scenario login-flood`): every answer is a 401, 429 or
 * 503 with its body, never a 500; hashes never run more than the configured number at once;
 * authenticated requests keep being answered during the flood; the flood locks the name it
 * guesses. The scrypt cost is lowered to 2^10 here (64 hashes at the default would take ~20 s).
 */
import { expect } from 'chai';
import request from 'supertest';
import type { InjectResponse as Response } from '../support/inject.js';
import type { PasswordHasher } from '../../modules/Dispensary/Integration/Model/PasswordHasher.js';
import { TestApp } from '../support/testApp.js';
import { createAdmin, FakeClock, FAST_HASHING, INVALID_CREDENTIALS, login } from '../modules/Integration/support.js';

const FLOOD = 64;

type Derive = (password: string, salt: Buffer, n: number, r: number, p: number) => Promise<Buffer>;

/** Wraps the hasher's key derivation: counts derivations at once, and can hold them at a gate. */
function watchHashing(t: TestApp) {
  const hasher = t.app.get<PasswordHasher>('Dispensary\\Integration\\Model\\PasswordHasher') as unknown as {
    derive: Derive;
    slots: PasswordHasher['slots'];
  };
  const original = hasher.derive.bind(hasher);
  const stats = { running: 0, most: 0, total: 0 };
  let gate: Promise<void> | null = null;
  let open = () => {};
  const slots = hasher.slots as unknown as { run: <T>(work: () => Promise<T>) => Promise<T> };
  const run = slots.run.bind(slots);
  // Count inside the slot: what runs there is what uses the CPU.
  slots.run = <T>(work: () => Promise<T>) =>
    run(async () => {
      stats.running++;
      stats.total++;
      stats.most = Math.max(stats.most, stats.running);
      try {
        if (gate) await gate;
        return await work();
      } finally {
        stats.running--;
      }
    });
  return {
    stats,
    slots: hasher.slots,
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      gate = null;
      open();
    },
    restore() {
      slots.run = run;
      hasher.derive = original;
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`never happened: ${what}`);
}

describe('Abuse: anonymous login floods', () => {
  describe('when 64 wrong passwords for one name arrive at once, with the default limits', () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      // A clock that stands still: the address's bucket does not refill while the flood lasts.
      t = await TestApp.start({
        clock: new FakeClock(),
        passwordHashing: { ...FAST_HASHING, concurrency: 1, queue: 64 },
      });
      await createAdmin(t, 'admin', 'secret123');
      token = await t.integrationToken({ allStores: true });
    });
    after(async () => t?.stop());

    it('should let at most 10 through the address limit, answer the rest 429, keep serving tokens, and lock the name', async () => {
      const watch = watchHashing(t);
      try {
        const flood = Array.from({ length: FLOOD }, (_, i) => login(t, 'admin', `guess-${i}-x1`));
        const reads = Array.from({ length: 8 }, () =>
          request(t.http).get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`),
        );
        const [answers, served] = await Promise.all([Promise.all(flood), Promise.all(reads)]);
        const count = (status: number) => answers.filter((r: Response) => r.status === status).length;
        expect(count(401) + count(429), JSON.stringify(answers.map((r) => r.status))).to.equal(FLOOD);
        expect(count(401)).to.equal(10);
        for (const r of answers)
          expect(r.body).to.deep.equal(r.status === 401 ? INVALID_CREDENTIALS : { message: 'Too Many Requests' });
        for (const r of answers.filter((a) => a.status === 429))
          expect(Number(r.headers['retry-after'])).to.be.within(1, 60);
        expect(served.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
        expect(watch.stats.most).to.equal(1);
        expect(watch.stats.total).to.be.at.most(10);
      } finally {
        watch.restore();
      }
      const row = await t.app.knex('oauth_token_request_log').where({ user_name: 'admin' }).first();
      expect(row.failures_count).to.be.at.least(6);
    });
  });

  describe('when a flood of different names fills the hashing queue (address limit off)', () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await TestApp.start({
        passwordHashing: { ...FAST_HASHING, concurrency: 2, queue: 4 },
        adminLogin: { rateLimit: 0 },
      });
      token = await t.integrationToken({ allStores: true });
    });
    after(async () => t?.stop());

    it('should hash two at a time, queue four, answer the rest 503 with Retry-After at once, and keep serving tokens', async () => {
      const watch = watchHashing(t);
      watch.hold();
      try {
        const settled: Response[] = [];
        const flood = Array.from({ length: FLOOD }, (_, i) =>
          login(t, `user-${i}`, 'wrong-guess-1').then((r) => (settled.push(r), r)),
        );
        await until(
          () => watch.slots.running === 2 && watch.slots.queued === 4 && settled.length === FLOOD - 6,
          '2 hashing, 4 waiting, the rest answered',
        );
        expect(settled.map((r) => r.status)).to.deep.equal(Array(FLOOD - 6).fill(503));
        for (const r of settled) {
          expect(r.headers['retry-after']).to.equal('1');
          expect(r.body).to.deep.equal({ message: 'The service is temporarily unavailable. Try again later.' });
        }
        const read = await request(t.http).get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
        expect(read.status, 'an authenticated request while every hashing slot is taken').to.equal(200);
        watch.release();
        const answers = await Promise.all(flood);
        expect(answers.filter((r) => r.status === 401)).to.have.length(6);
        expect(watch.stats.most).to.equal(2);
      } finally {
        watch.release();
        watch.restore();
      }
    });
  });
});
