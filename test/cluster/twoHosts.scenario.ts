/**
 * Scenario 1: two API hosts, one database, one Redis. A write on one host is read on the other
 * at once; an OAuth request replayed on the other host is refused (the nonce is in the database);
 * a revoked token is refused on both; the admin token route's limit (10 a minute per client
 * address) holds for the deployment: the 11th request is 429 whichever host answers.
 */
import { expect } from 'chai';
import { oauthHeader, type Credentials } from '../modules/Integration/support/oauthClient.js';
import { Cluster } from './harness/Cluster.js';
import { contractAcrossHosts } from './harness/fixtures.js';

describe('cluster: two API hosts on one database', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let token: string;

  before(async () => {
    cluster = await Cluster.start({ run: ['api1', 'api2'] });
    token = await cluster.integrationToken('cluster-all');
  });
  after(async () => cluster?.stop());

  it('should serve the contract on both hosts, and read on one what was written on the other at once', async () => {
    await contractAcrossHosts(cluster, token, 'C');
  });

  it('should refuse on one host an OAuth request already used on the other', async () => {
    const created = await cluster.cli('integration:create', '--name', 'cluster-oauth', '--all-stores', '--json');
    expect(created.code, created.err).to.equal(0);
    const credentials = JSON.parse(created.out.trim().split('\n').pop()!) as Credentials;
    const route = '/rest/V1/store/storeViews';
    // Both hosts sit behind one public name (the Host header a balancer keeps), so one signature is valid on either.
    const header = oauthHeader(credentials, 'GET', `http://dispensary.example${route}`);
    expect((await cluster.call('api1', 'GET', route, { headers: { Authorization: header } })).status).to.equal(200);
    expect(
      (await cluster.call('api2', 'GET', route, { headers: { Authorization: header } })).status,
      'the same nonce on the other host',
    ).to.equal(401);
    const fresh = oauthHeader(credentials, 'GET', `http://dispensary.example${route}`);
    expect(
      (await cluster.call('api2', 'GET', route, { headers: { Authorization: fresh } })).status,
      'a new nonce',
    ).to.equal(200);
  });

  it('should refuse a revoked token on both hosts at once', async () => {
    const revocable = await cluster.integrationToken('cluster-revocable');
    for (const host of ['api1', 'api2'] as const)
      expect((await cluster.call(host, 'GET', '/rest/V1/store/storeViews', { token: revocable })).status).to.equal(200);
    expect((await cluster.cli('integration:token:revoke', '--name', 'cluster-revocable')).code).to.equal(0);
    for (const host of ['api1', 'api2'] as const)
      expect((await cluster.call(host, 'GET', '/rest/V1/store/storeViews', { token: revocable })).status).to.equal(401);
  });

  it('should hold the admin token limit across both hosts: the 11th request from one address is 429 on either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const host = i % 2 === 0 ? 'api1' : 'api2';
      statuses.push(
        (
          await cluster.call(host, 'POST', '/rest/V1/integration/admin/token', {
            body: { username: 'nobody', password: 'wrong123' },
          })
        ).status,
      );
    }
    expect(statuses).to.deep.equal([...Array(10).fill(401), 429, 429]);
  });
});
