/**
 * The admin token route's limit shared through Redis (REDIS_URL): two applications (two API
 * processes, as far as the limit can tell) on one Redis count one address together; Redis out of
 * reach: each falls back to its own memory, logs it, and /health says `redis: down` with 200.
 * The shared cases need TEST_REDIS_URL (e.g. redis://127.0.0.1:6379); every run uses a key prefix
 * of its own and deletes only its own keys.
 */
import { createServer } from 'node:net';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { TestApp } from '../../support/testApp.js';
import { captureLogger, FAST_HASHING, login } from './support.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? '';
const LIMITS = { rateLimit: 3, rateWindowSeconds: 60, lockoutFailures: 0, failureDelayMs: 0 };

/** A loopback port nobody listens on: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Waits (at most 5 s) until the application's Redis answers. */
async function connected(t: TestApp): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await t.app.shared.status()) !== 'up') {
    if (Date.now() > deadline) throw new Error('Redis did not answer within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Integration: the admin token limit shared in Redis', function () {
  describe('when two processes share one Redis', function () {
    const prefix = `test:${process.pid}:${Date.now()}:`;
    let a: TestApp;
    let b: TestApp;
    before(async function () {
      if (!REDIS_URL) {
        if (process.env.CI) throw new Error('CI must run the Redis tests: set TEST_REDIS_URL');
        return this.skip();
      }
      const redis = { url: REDIS_URL, keyPrefix: prefix };
      a = await TestApp.start({ redis, passwordHashing: FAST_HASHING, adminLogin: LIMITS });
      b = await TestApp.start({ redis, passwordHashing: FAST_HASHING, adminLogin: LIMITS });
      // A command sent before ioredis has connected is answered from memory (no offline queue), so
      // count only once both processes are connected, as a deployment that has been up a moment is.
      await connected(a);
      await connected(b);
    });
    after(async () => {
      await a?.stop();
      await b?.stop();
      if (!REDIS_URL) return;
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });

    it('should count one address across both: the 4th request is 429 whichever process answers', async () => {
      expect((await login(a, 'nobody', 'wrong123')).status).to.equal(401);
      expect((await login(b, 'nobody', 'wrong123')).status).to.equal(401);
      expect((await login(a, 'nobody', 'wrong123')).status).to.equal(401);
      const refused = await login(b, 'nobody', 'wrong123');
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
      expect((await login(a, 'nobody', 'wrong123')).status).to.equal(429);
    });

    it('should report redis: up on /health', async () => {
      const res = await a.request().get('/health');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok', database: 'up', redis: 'up' });
    });

    it('should let one process of the deployment claim the periodic purge per interval', async () => {
      expect(await a.app.shared.claim('test_claim', 60)).to.equal(true);
      expect(await b.app.shared.claim('test_claim', 60)).to.equal(false);
      expect(await a.app.shared.claim('test_claim', 60)).to.equal(false);
    });
  });

  describe('when Redis cannot be reached', function () {
    const log = captureLogger();
    let t: TestApp;
    before(async () => {
      const redis = { url: `redis://127.0.0.1:${await closedPort()}`, keyPrefix: `test:${process.pid}:` };
      t = await TestApp.start({ redis, logger: log.logger, passwordHashing: FAST_HASHING, adminLogin: LIMITS });
    });
    after(async () => t?.stop());

    it("should keep answering on this process's own limit, say so in the log, and keep /health at 200 with redis: down", async () => {
      for (let i = 0; i < 3; i++) expect((await login(t, 'nobody', 'wrong123')).status).to.equal(401);
      expect((await login(t, 'nobody', 'wrong123')).status).to.equal(429);
      expect(log.lines.some((l) => typeof l.msg === 'string' && l.msg.includes('fall back to this process'))).to.equal(
        true,
      );
      const health = await t.request().get('/health');
      expect(health.status).to.equal(200);
      expect(health.body).to.deep.equal({ status: 'ok', database: 'up', redis: 'down' });
      expect(await t.app.shared.claim('test_claim', 60), 'no claim: each process purges on its own timer').to.equal(
        null,
      );
    });
  });
});
