/**
 * Scenario 3: the worker loses the broker, then (another bulk) the database, in the middle of a
 * 2,000-operation bulk of Add Items (two bulk requests of 1,000, the most one may hold), and gets it back: every operation is applied exactly once.
 * The link is silenced at the data host's forwarder for the worker's address only (bytes stop
 * both ways, nothing is closed), since the worker's bridge port carries both services.
 * AMQP_HEARTBEAT_SECONDS is 2 here so the dead broker link is noticed in seconds.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';
import { Cluster } from './harness/Cluster.js';
import { createPatient, createProducts, createRecommendation, ok } from './harness/fixtures.js';
import { HOSTS } from './harness/network.js';

const RECOMMENDATIONS = 50;
const SKUS = Array.from({ length: 40 }, (_, i) => `W-${i}`);
const OPERATIONS = RECOMMENDATIONS * SKUS.length;
const SILENCE_MS = 8000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cluster: the worker loses the broker, then the database, in the middle of a bulk', function () {
  this.timeout(300_000);
  let cluster: Cluster;
  let token: string;
  let knex: Knex;

  before(async () => {
    cluster = await Cluster.start({ run: ['api1', 'worker'], amqp: true, env: { AMQP_HEARTBEAT_SECONDS: '2' } });
    token = await cluster.integrationToken('cluster-bulk');
    await createProducts(cluster, 'api1', token, ['W-BASE', ...SKUS]);
    knex = knexFactory({ ...parseDatabaseUrl(cluster.database.url).config, pool: { min: 0, max: 2 } });
  });
  after(async () => {
    await knex?.destroy();
    await cluster?.stop();
  });

  const completed = async (uuids: string[]) =>
    Number(
      (
        (await knex('magento_operation').whereIn('bulk_uuid', uuids).andWhere({ status: 1 }).count({ n: '*' })) as {
          n: number | string;
        }[]
      )[0]!.n,
    );

  for (const link of ['amqp', 'database'] as const) {
    it(`should apply every operation exactly once when the worker's ${link === 'amqp' ? 'broker' : 'database'} link goes silent and comes back`, async () => {
      const patientId = await createPatient(cluster, 'api1', token);
      const ids: string[] = [];
      for (let i = 0; i < RECOMMENDATIONS; i++)
        ids.push(
          ok(await createRecommendation(cluster, 'api1', token, patientId, ['W-BASE'])).recommendation_id as string,
        );
      const elements = ids.flatMap((recommendationId) =>
        SKUS.map((sku) => ({ recommendationId, recommendation: { items: [{ sku, qty: 1 }] } })),
      );
      const uuid: string[] = [];
      for (const half of [elements.slice(0, OPERATIONS / 2), elements.slice(OPERATIONS / 2)]) {
        const accepted = await cluster.call(
          'api1',
          'POST',
          '/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item',
          { token, body: half },
        );
        expect(accepted.status, JSON.stringify(accepted.body).slice(0, 300)).to.equal(202);
        uuid.push((accepted.body as { bulk_uuid: string }).bulk_uuid);
      }

      const started = performance.now();
      for (let i = 0; i < 600 && (await completed(uuid)) < OPERATIONS / 5; i++) await sleep(100);
      const before = await completed(uuid);
      expect(before, 'the worker was consuming before the fault').to.be.above(0);
      const forwarder = cluster.forwarders.get(link)!;
      forwarder.pause(HOSTS.worker.data);
      await sleep(SILENCE_MS);
      const during = await completed(uuid);
      forwarder.resume(HOSTS.worker.data);
      const resumed = performance.now();
      let done = during;
      for (let i = 0; i < 1200 && done < OPERATIONS; i++) {
        await sleep(100);
        done = await completed(uuid);
      }
      const statuses = (await knex('magento_operation')
        .whereIn('bulk_uuid', uuid)
        .groupBy('status')
        .select('status')
        .count({ n: '*' })) as { status: number; n: number | string }[];
      const maxStarted = Number(
        (
          (await knex('magento_operation').whereIn('bulk_uuid', uuid).max({ m: 'started_count' })) as {
            m: number | string;
          }[]
        )[0]!.m,
      );
      console.log(
        `      [figures] ${link} silenced for ${SILENCE_MS} ms after ${before} of ${OPERATIONS} operations (${during - before} more while silent); ` +
          `all complete ${Math.round((performance.now() - resumed) / 1000)} s after the link came back, ${Math.round((performance.now() - started) / 1000)} s in all; ` +
          `most starts of one operation: ${maxStarted}`,
      );
      expect(statuses.map((s) => [Number(s.status), Number(s.n)])).to.deep.equal([[1, OPERATIONS]]);
      // Exactly once: each recommendation holds the base item and each sku once.
      const items = (await knex('dispensary_recommendation_item')
        .whereIn('recommendation_id', ids)
        .groupBy('recommendation_id', 'sku')
        .select('recommendation_id', 'sku')
        .count({ n: '*' })) as { n: number | string }[];
      expect(items.length).to.equal(RECOMMENDATIONS * (SKUS.length + 1));
      expect(items.filter((row) => Number(row.n) !== 1)).to.deep.equal([]);
    });
  }
});
