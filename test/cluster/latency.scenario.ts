/**
 * Scenario 4: 50 ms more latency on the database link (each answer of the database held 50 ms
 * at the data host's forwarder: this kernel has no netem qdisc). The contract still passes, on
 * both hosts. Throughput and p99 of Add Items with and without it are figures of
 * `npm run bench:cluster`, not of this test.
 */
import { Cluster } from './harness/Cluster.js';
import { contractAcrossHosts } from './harness/fixtures.js';

describe('cluster: 50 ms latency on the database link', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let token: string;

  before(async () => {
    cluster = await Cluster.start({ run: ['api1', 'api2'] });
    token = await cluster.integrationToken('cluster-latency');
    cluster.forwarders.get('database')!.delayMs = 50;
  });
  after(async () => cluster?.stop());

  it('should still serve the contract on both hosts', async () => {
    await contractAcrossHosts(cluster, token, 'L');
  });
});
