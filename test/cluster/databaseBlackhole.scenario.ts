/**
 * Scenario 2: api1's link to the database drops every packet (its data bridge port disabled: no
 * reset, no FIN) while clients still reach api1 over its front link. Requests on api1 answer 503
 * within the bound the DB_*_TIMEOUT_MS settings give (defaults: 5 s acquire, 5 s connect, 5 s
 * statement + 1 s on the client), /health on api1 says the database is down, api2 is unaffected;
 * with the link back, api1 answers again within seconds, with no restart and no connection left
 * stuck in its pool. Figures are printed for docs/operating-several-hosts.md.
 */
import { expect } from 'chai';
import { Cluster } from './harness/Cluster.js';
import { createPatient, createProducts, createRecommendation, ok } from './harness/fixtures.js';
import { blackhole, restore } from './harness/network.js';

/** The default settings' worst case (acquire, or a statement and the client's grace), and slack for a busy 2-core machine. */
const BOUND_MS = 6000 + 3000;

describe('cluster: api1 loses the database link (packets dropped)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let token: string;
  let recommendationId: string;

  before(async () => {
    cluster = await Cluster.start({ run: ['api1', 'api2'] });
    token = await cluster.integrationToken('cluster-blackhole');
    await createProducts(cluster, 'api1', token, ['B-1', 'B-2']);
    const patientId = await createPatient(cluster, 'api1', token);
    recommendationId = ok(await createRecommendation(cluster, 'api1', token, patientId, ['B-1']))
      .recommendation_id as string;
  });
  after(async () => {
    if (cluster) restore('api1', 'data');
    await cluster?.stop();
  });

  const read = (host: 'api1' | 'api2') =>
    cluster.call(host, 'GET', `/rest/default/V1/dispensary/recommendation/${recommendationId}`, {
      token,
      timeoutMs: 60_000,
    });

  it('should answer 503 on api1 within the bound, keep api2 serving, and recover api1 without a restart', async () => {
    // api1's pool holds connections, as a running service's does.
    await Promise.all(Array.from({ length: 6 }, () => read('api1')));
    blackhole('api1', 'data');

    // More requests at once than api1's pool holds (10).
    const reads = Array.from({ length: 14 }, () => read('api1'));
    const write = cluster.call('api1', 'POST', `/rest/default/V1/dispensary/recommendation/${recommendationId}/item`, {
      token,
      body: { recommendation: { items: [{ sku: 'B-2', qty: 3 }] } },
    });
    const health = cluster.call('api1', 'GET', '/health');
    const meanwhile = await read('api2');
    expect(meanwhile.status, 'api2 is unaffected').to.equal(200);
    const answers = await Promise.all(reads);
    const writeAnswer = await write;
    const healthAnswer = await health;
    const slowest = Math.max(...answers.map((a) => a.ms), writeAnswer.ms);
    console.log(
      `      [figures] blackholed api1<->db: ${answers.length} reads + 1 write answered ${[...new Set([...answers, writeAnswer].map((a) => a.status))].join('/')}, ` +
        `fastest ${Math.round(Math.min(...answers.map((a) => a.ms)))} ms, slowest ${Math.round(slowest)} ms; /health ${healthAnswer.status} in ${Math.round(healthAnswer.ms)} ms`,
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(answers.length).fill(503));
    expect(writeAnswer.status).to.equal(503);
    expect(slowest).to.be.below(BOUND_MS);
    expect(healthAnswer.status).to.equal(503);
    expect(healthAnswer.body).to.deep.include({ status: 'unavailable', database: 'down' });
    expect(healthAnswer.ms).to.be.below(BOUND_MS);
    // Requests keep answering 503 in bounded time while the link is down (the pool is not wedged).
    const again = await read('api1');
    expect(again.status).to.equal(503);
    expect(again.ms).to.be.below(BOUND_MS);
    expect((await read('api2')).status).to.equal(200);

    restore('api1', 'data');
    const restored = performance.now();
    let status = 0;
    for (let attempt = 0; attempt < 60 && status !== 200; attempt++) {
      status = (await read('api1')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const recoveredMs = performance.now() - restored;
    console.log(`      [figures] api1 answered 200 again ${Math.round(recoveredMs)} ms after the link came back`);
    expect(status).to.equal(200);
    expect(recoveredMs).to.be.below(20_000);
    // No connection stuck in the pool: more requests than it holds, at once, all answer.
    const after = await Promise.all(Array.from({ length: 20 }, () => read('api1')));
    expect(after.map((a) => a.status)).to.deep.equal(Array(20).fill(200));
    expect((await cluster.call('api1', 'GET', '/health')).status).to.equal(200);
    // The write refused with 503 changed nothing.
    const items = (ok(await read('api2')).items as { sku: string; qty: number }[]).map((i) => [i.sku, i.qty]);
    expect(items).to.deep.equal([['B-1', 1]]);
  });
});
