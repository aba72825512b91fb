/**
 * The admin token route under guessing: Magento's lock-out, case-insensitive user names, rehashing
 * on login, failed logins in the log, revocation and purging. These tests lower the scrypt cost to
 * 2^10 (FAST_HASHING) because each makes many hashes, and the failure delay to 0 because they make
 * dozens of failures; "at the default cost" and the delay's own test keep the defaults.
 */
import { scryptSync } from 'node:crypto';
import { expect } from 'chai';
import { requestContext } from '../../../app/framework/index.js';
import type { PasswordHasher } from '../../../modules/Dispensary/Integration/Model/PasswordHasher.js';
import { TestApp } from '../../support/testApp.js';
import { captureLogger, createAdmin, FakeClock, FAST_HASHING, INVALID_CREDENTIALS, login } from './support.js';

const storeViews = (t: TestApp, token: string) =>
  t.request().get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);

describe('Integration: admin login', () => {
  const clock = new FakeClock();
  const log = captureLogger();
  let t: TestApp;
  before(async () => {
    t = await TestApp.start({
      clock,
      logger: log.logger,
      passwordHashing: FAST_HASHING,
      adminLogin: { rateLimit: 0, failureDelayMs: 0 },
    });
    await createAdmin(t, 'Admin', 'secret123');
  });
  after(async () => t?.stop());
  beforeEach(async () => {
    await t.cli('admin:user:unlock', '--username', 'admin');
    log.lines.length = 0;
  });

  describe('when a user name guesses wrong six times', () => {
    it('should refuse even the right password with the same 401 until 30 minutes have passed', async () => {
      for (let i = 0; i < 6; i++) {
        const res = await login(t, 'admin', `wrong-${i}1`);
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal(INVALID_CREDENTIALS);
      }
      const locked = await login(t, 'admin', 'secret123');
      expect(locked.status).to.equal(401);
      expect(locked.body).to.deep.equal(INVALID_CREDENTIALS);
      clock.advance(29 * 60_000);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(401);
      clock.advance(60_000 + 1000);
      const open = await login(t, 'admin', 'secret123');
      expect(open.status).to.equal(200);
      expect((await storeViews(t, open.body as string)).status).to.equal(200);
    });

    it('should not lock after five failures, and a success should start the count again', async () => {
      for (let i = 0; i < 5; i++) expect((await login(t, 'admin', 'wrong123')).status).to.equal(401);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(200);
      for (let i = 0; i < 5; i++) expect((await login(t, 'admin', 'wrong123')).status).to.equal(401);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(200);
    });

    it('should count failures of an unknown user name too, so the lock tells nothing', async () => {
      for (let i = 0; i < 6; i++) expect((await login(t, 'ghost', 'wrong123')).body).to.deep.equal(INVALID_CREDENTIALS);
      const row = await t.app.knex('oauth_token_request_log').where({ user_name: 'ghost' }).first();
      expect(row.failures_count).to.equal(6);
    });

    it('should count the failures of every spelling of the name under one key', async () => {
      for (const name of ['ADMIN', 'admin', ' Admin ', 'aDmIn', 'AdMiN', 'admin'])
        expect((await login(t, name, 'wrong123')).status).to.equal(401);
      expect((await login(t, 'Admin', 'secret123')).status).to.equal(401);
      expect((await t.cli('admin:user:unlock', '--username', 'ADMIN')).code).to.equal(0);
      expect((await login(t, 'Admin', 'secret123')).status).to.equal(200);
    });

    it('should start the count again when the last failure is older than the lock time', async () => {
      for (let i = 0; i < 5; i++) expect((await login(t, 'admin', 'wrong123')).status).to.equal(401);
      clock.advance(31 * 60_000);
      expect((await login(t, 'admin', 'wrong123')).status).to.equal(401);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(200);
    });
  });

  describe('when logins fail', () => {
    it('should answer every refusal no sooner than the failure delay after it arrived', async () => {
      const slow = await TestApp.start({ passwordHashing: FAST_HASHING, adminLogin: { failureDelayMs: 300 } });
      try {
        for (const password of ['wrong123', 'wrong456']) {
          const started = performance.now();
          expect((await login(slow, 'nobody', password)).status).to.equal(401);
          expect(performance.now() - started).to.be.at.least(295);
        }
      } finally {
        await slow.stop();
      }
    });

    it('should log the user name, the client address and the reason, never the password', async () => {
      await login(t, 'admin', 'not-the-password-42');
      await login(t, 'nobody', 'not-the-password-43');
      const failures = log.lines.filter((l) => l.event === 'admin_login_failed');
      expect(failures.map((l) => [l.username, l.reason])).to.deep.equal([
        ['admin', 'wrong password'],
        ['nobody', 'unknown user'],
      ]);
      for (const line of failures) expect(String(line.clientAddress)).to.match(/127\.0\.0\.1|::1/);
      expect(JSON.stringify(log.lines)).not.to.contain('not-the-password');
    });
  });

  describe('when the password is checked', () => {
    it('should run outside any transaction and hold no pooled connection while hashing', async () => {
      const hasher = t.app.get<PasswordHasher>('Dispensary\\Integration\\Model\\PasswordHasher');
      const seen: { transaction: boolean; connectionsInUse: number }[] = [];
      const pool = (t.app.knex.client as { pool: { numUsed(): number } }).pool;
      const original = hasher.verify.bind(hasher);
      hasher.verify = async (password, stored) => {
        seen.push({
          transaction: requestContext.current()?.transaction !== undefined,
          connectionsInUse: pool.numUsed(),
        });
        return original(password, stored);
      };
      try {
        expect((await login(t, 'admin', 'secret123')).status).to.equal(200);
        expect((await login(t, 'admin', 'wrong123')).status).to.equal(401);
      } finally {
        hasher.verify = original;
      }
      expect(seen).to.deep.equal([
        { transaction: false, connectionsInUse: 0 },
        { transaction: false, connectionsInUse: 0 },
      ]);
    });
  });

  describe('when user names differ only in case', () => {
    it('should log in with any spelling and answer tokens under the stored name', async () => {
      const res = await login(t, 'ADMIN', 'secret123');
      expect(res.status).to.equal(200);
      const row = await t.app.knex('integration_token').where({ kind: 'admin' }).orderBy('token_id', 'desc').first();
      expect(row.name).to.equal('Admin');
    });

    it('should refuse a second user whose name differs only in case', async () => {
      const again = await t.cli('admin:user:create', '--username', 'ADMIN', '--password', 'other1234');
      expect(again.code).to.equal(1);
      expect(again.err.join('\n')).to.contain('already exists');
      expect(Number((await t.app.knex('admin_user').count({ n: '*' }).first())!.n)).to.equal(1);
    });
  });

  describe('when a stored hash has older parameters', () => {
    it('should still accept the password and store it again at the current cost', async () => {
      const salt = Buffer.alloc(16, 7);
      const old = `scrypt$16384$8$1$${salt.toString('base64')}$${scryptSync('legacy123', salt, 64, { N: 16384, r: 8, p: 1 }).toString('base64')}`;
      await t.app
        .knex('admin_user')
        .insert({ username: 'legacy', username_key: 'legacy', password_hash: old, created_at: '2026-01-01 00:00:00' });
      expect((await login(t, 'legacy', 'wrong999')).status).to.equal(401);
      expect((await t.app.knex('admin_user').where({ username: 'legacy' }).first()).password_hash).to.equal(old);
      expect((await login(t, 'legacy', 'legacy123')).status).to.equal(200);
      const stored = (await t.app.knex('admin_user').where({ username: 'legacy' }).first()).password_hash as string;
      expect(stored).to.match(/^scrypt\$1024\$8\$1\$/);
      expect((await login(t, 'legacy', 'legacy123')).status).to.equal(200);
    });
  });

  describe("when an operator revokes a user's admin tokens", () => {
    it("should make every token of that user answer 401 at once, and leave other users' tokens alone", async () => {
      await createAdmin(t, 'other', 'other1234');
      const first = (await login(t, 'admin', 'secret123')).body as string;
      const second = (await login(t, 'admin', 'secret123')).body as string;
      const others = (await login(t, 'other', 'other1234')).body as string;
      const result = await t.cli('admin:token:revoke', '--username', 'ADMIN');
      expect(result.code).to.equal(0);
      expect(result.out.join('\n')).to.match(/Revoked \d+ admin token/);
      expect((await storeViews(t, first)).status).to.equal(401);
      expect((await storeViews(t, second)).status).to.equal(401);
      expect((await storeViews(t, others)).status).to.equal(200);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(200);
    });

    it('should fail for an unknown user', async () => {
      expect((await t.cli('admin:token:revoke', '--username', 'nobody-here')).code).to.equal(1);
    });
  });

  describe('when tokens and locks expire', () => {
    it('should purge expired and revoked admin tokens and expired lock rows, and keep the rest', async () => {
      const live = (await login(t, 'admin', 'secret123')).body as string;
      await login(t, 'expired-name', 'wrong123');
      clock.advance(4 * 3600_000 + 1000);
      const fresh = (await login(t, 'admin', 'secret123')).body as string;
      const integration = await t.integrationToken({ allStores: true });
      const result = await t.cli('integration:token:purge');
      expect(result.code).to.equal(0);
      expect(result.out.join('\n')).to.match(/admin_tokens: \d+ deleted/);
      const adminRows = await t.app.knex('integration_token').where({ kind: 'admin' });
      expect(adminRows).to.have.length(1);
      expect(await t.app.knex('oauth_token_request_log').where({ user_name: 'expired-name' })).to.have.length(0);
      expect((await storeViews(t, live)).status).to.equal(401);
      expect((await storeViews(t, fresh)).status).to.equal(200);
      expect((await storeViews(t, integration)).status).to.equal(200);
    });
  });
});

describe('Integration: admin passwords at the default cost', () => {
  let t: TestApp;
  // The suite hashes at 2^10 (test/setup.ts sets PASSWORD_SCRYPT_COST): here the deployment default.
  const suiteCost = process.env.PASSWORD_SCRYPT_COST;
  before(async () => {
    delete process.env.PASSWORD_SCRYPT_COST;
    t = await TestApp.start();
  });
  after(async () => {
    if (suiteCost !== undefined) process.env.PASSWORD_SCRYPT_COST = suiteCost;
    await t?.stop();
  });

  it('should store scrypt N=2^17, r=8, p=1 with a random salt, and log in with it', async () => {
    await createAdmin(t, 'strong', 'strong123');
    const row = await t.app.knex('admin_user').where({ username: 'strong' }).first();
    expect(row.password_hash).to.match(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
    expect((await login(t, 'STRONG', 'strong123')).status).to.equal(200);
    expect((await t.app.knex('admin_user').where({ username: 'strong' }).first()).password_hash).to.equal(
      row.password_hash,
    );
  });
});
