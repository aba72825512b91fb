/**
 * Scenario 5: api1 is SIGKILLed while 200 writes are in flight through both hosts. Each write
 * creates a recommendation with three items in one request: afterwards every recommendation in
 * the database has all three items or does not exist, and every write answered 200 is there.
 */
import { expect } from 'chai';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';
import { Cluster, type Answer } from './harness/Cluster.js';
import { createPatient, createProducts, createRecommendation, ok } from './harness/fixtures.js';

const WRITES = 200;
const SKUS = ['K-1', 'K-2', 'K-3'];

describe('cluster: api1 killed in the middle of concurrent writes', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let token: string;
  let patientId: number;

  before(async () => {
    cluster = await Cluster.start({ run: ['api1', 'api2'] });
    token = await cluster.integrationToken('cluster-kill');
    await createProducts(cluster, 'api1', token, SKUS);
    patientId = await createPatient(cluster, 'api1', token);
  });
  after(async () => cluster?.stop());

  it('should leave every write all-or-nothing and lose none answered 200', async () => {
    let answered = 0;
    const writes = Array.from({ length: WRITES }, (_, i) => {
      const host = i % 2 === 0 ? 'api1' : 'api2';
      return createRecommendation(cluster, host, token, patientId, SKUS).then(
        (answer): Answer | Error => {
          answered++;
          return answer;
        },
        (error: Error) => error,
      );
    });
    // Kill api1 once some writes have been answered and many are still in flight (bounded wait).
    const deadline = Date.now() + 20_000;
    while (answered < WRITES / 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const answeredAtKill = answered;
    await cluster.kill('api1', 'SIGKILL');
    const results = await Promise.all(writes);

    const confirmed = results
      .filter((r): r is Answer => !(r instanceof Error) && r.status === 200)
      .map((r) => (r.body as { recommendation_id: string }).recommendation_id);
    const failed = results.length - confirmed.length;
    console.log(
      `      [figures] api1 killed after ${answeredAtKill} of ${WRITES} answers: ${confirmed.length} answered 200, ${failed} failed (connection reset or 503)`,
    );
    expect(failed, 'api1 was killed with writes in flight').to.be.above(0);

    const knex = knexFactory(parseDatabaseUrl(cluster.database.url).config);
    try {
      const rows = (await knex('dispensary_recommendation as r')
        .leftJoin('dispensary_recommendation_item as i', 'i.recommendation_id', 'r.recommendation_id')
        .where('r.patient_id', patientId)
        .groupBy('r.recommendation_id')
        .select('r.recommendation_id')
        .count({ items: 'i.item_id' })) as { recommendation_id: string; items: number | string }[];
      const counts = new Map(rows.map((row) => [String(row.recommendation_id), Number(row.items)]));
      expect(
        [...counts.values()].filter((n) => n !== SKUS.length),
        'recommendations with some items only',
      ).to.deep.equal([]);
      for (const id of confirmed)
        expect(counts.get(String(id)), `recommendation ${id} answered 200`).to.equal(SKUS.length);
      console.log(`      [figures] ${counts.size} recommendations stored, each with its ${SKUS.length} items`);
    } finally {
      await knex.destroy();
    }
    // api2 still serves.
    ok(await cluster.call('api2', 'GET', '/health'));
  });
});
