/**
 * Scenario 6: the Redis host's link drops every packet. Logins and requests keep working, each
 * API process counting the admin token limit in its own memory (so two hosts allow twice the
 * limit), /health answers 200 with `redis: down`; with the link back, /health says `redis: up`
 * again and the limit is one for the deployment again.
 */
import { expect } from 'chai';
import { Cluster } from './harness/Cluster.js';
import { blackhole, restore } from './harness/network.js';

const LOGIN = '/rest/V1/integration/admin/token';

describe('cluster: Redis unreachable (packets dropped), then back', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let token: string;

  before(async () => {
    cluster = await Cluster.start({ run: ['api1', 'api2'] });
    token = await cluster.integrationToken('cluster-redis');
    const created = await cluster.cli('admin:user:create', '--username', 'operator', '--password', 'secret123');
    expect(created.code, created.err).to.equal(0);
  });
  after(async () => {
    if (cluster) restore('cache', 'data');
    await cluster?.stop();
  });

  const login = (host: 'api1' | 'api2') =>
    cluster.call(host, 'POST', LOGIN, { body: { username: 'operator', password: 'secret123' } });
  const alternate = async (count: number) => {
    const answers = [];
    for (let i = 0; i < count; i++) answers.push(await login(i % 2 === 0 ? 'api1' : 'api2'));
    return answers;
  };
  const redisOnBoth = async (expected: 'up' | 'down') => {
    for (let attempt = 0; attempt < 80; attempt++) {
      const [a, b] = await Promise.all([
        cluster.call('api1', 'GET', '/health'),
        cluster.call('api2', 'GET', '/health'),
      ]);
      if ((a.body as { redis?: string }).redis === expected && (b.body as { redis?: string }).redis === expected)
        return [a, b];
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`/health never said redis: ${expected} on both hosts`);
  };

  it('should keep logins and requests working on per-process limits, and share the limit again once Redis is back', async () => {
    blackhole('cache', 'data');
    const down = await alternate(14);
    const slowest = Math.max(...down.map((a) => a.ms));
    console.log(
      `      [figures] Redis blackholed: ${down.length} logins answered ${[...new Set(down.map((a) => a.status))].join('/')}, slowest ${Math.round(slowest)} ms (REDIS_COMMAND_TIMEOUT_MS 250)`,
    );
    // 7 per host, under each process's own limit of 10: all succeed (shared, the 11th would be 429).
    expect(down.map((a) => a.status)).to.deep.equal(Array(14).fill(200));
    expect((await cluster.call('api1', 'GET', '/rest/V1/store/storeViews', { token })).status).to.equal(200);
    const [health] = await redisOnBoth('down');
    expect(health!.status).to.equal(200);
    expect(health!.body).to.deep.include({ status: 'ok', database: 'up', redis: 'down' });

    restore('cache', 'data');
    const restored = performance.now();
    await redisOnBoth('up');
    console.log(
      `      [figures] /health said redis: up on both hosts ${Math.round(performance.now() - restored)} ms after the link came back`,
    );
    // Shared again: at most 10 from this address across both hosts, then 429 on either.
    const up = await alternate(12);
    const allowed = up.filter((a) => a.status === 200).length;
    expect(allowed).to.be.at.most(10);
    expect(up.slice(-2).map((a) => a.status)).to.deep.equal([429, 429]);
  });
});
