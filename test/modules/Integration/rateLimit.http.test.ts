import { expect } from 'chai';
import { clientKey } from '../../../modules/Dispensary/Integration/Model/ClientRateLimiter.js';
import { TestApp } from '../../support/testApp.js';
import { captureLogger, createAdmin, FakeClock, FAST_HASHING, login } from './support.js';

const TOO_MANY = { message: 'Too Many Requests' };

describe("Integration: the admin token route's per-address limit", () => {
  describe('when one address asks too often', () => {
    const clock = new FakeClock();
    const log = captureLogger();
    let t: TestApp;
    before(async () => {
      t = await TestApp.start({
        clock,
        logger: log.logger,
        passwordHashing: FAST_HASHING,
        adminLogin: { rateLimit: 3, rateWindowSeconds: 60, lockoutFailures: 0, failureDelayMs: 0 },
      });
      await createAdmin(t, 'admin', 'secret123');
    });
    after(async () => t?.stop());

    it('should answer 429 with Retry-After past the limit, even for the right password, and refill over the window', async () => {
      for (let i = 0; i < 3; i++) expect((await login(t, 'admin', 'wrong123')).status).to.equal(401);
      log.lines.length = 0;
      const refused = await login(t, 'admin', 'secret123');
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal(TOO_MANY);
      expect(refused.headers['retry-after']).to.equal('20');
      expect(log.lines.filter((l) => l.event === 'admin_login_failed').map((l) => l.reason)).to.deep.equal([
        'too many requests from the address',
      ]);
      clock.advance(20_000);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(200);
      expect((await login(t, 'admin', 'secret123')).status).to.equal(429);
    });

    it('should ignore X-Forwarded-For when TRUST_PROXY is off', async () => {
      const res = await login(t, 'admin', 'secret123', { 'X-Forwarded-For': '203.0.113.9' });
      expect(res.status).to.equal(429);
    });
  });

  describe('when TRUST_PROXY trusts the loopback proxy', () => {
    let t: TestApp;
    before(async () => {
      t = await TestApp.start({
        clock: new FakeClock(),
        trustProxy: 'loopback',
        passwordHashing: FAST_HASHING,
        adminLogin: { rateLimit: 2, lockoutFailures: 0, failureDelayMs: 0 },
      });
    });
    after(async () => t?.stop());

    it('should count each forwarded client address on its own', async () => {
      const from = (address: string) => login(t, 'nobody', 'wrong123', { 'X-Forwarded-For': address });
      expect((await from('203.0.113.1')).status).to.equal(401);
      expect((await from('203.0.113.1')).status).to.equal(401);
      expect((await from('203.0.113.1')).status).to.equal(429);
      expect((await from('203.0.113.2')).status).to.equal(401);
      expect((await from('2001:db8:1:2::1')).status).to.equal(401);
      expect((await from('2001:db8:1:2:ffff::9')).status).to.equal(401);
      expect((await from('2001:db8:1:2::77')).status, 'same /64').to.equal(429);
    });
  });

  describe('when addresses are keyed', () => {
    it('should key IPv4, IPv4 mapped into IPv6 alike, and IPv6 by its /64', () => {
      expect(clientKey('127.0.0.1')).to.equal('127.0.0.1');
      expect(clientKey('::ffff:127.0.0.1')).to.equal('127.0.0.1');
      expect(clientKey('2001:db8:0:1::5')).to.equal('2001:db8:0:1::/64');
      expect(clientKey('2001:DB8:0:1:a:b:c:d')).to.equal('2001:db8:0:1::/64');
      expect(clientKey('::1')).to.equal('0:0:0:0::/64');
      expect(clientKey('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
    });
  });
});
