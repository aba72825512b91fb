/**
 * The bulk's own status in `GET /V1/bulk/:uuid/status` and `detailed-status` (Magento's
 * getBulkStatus codes: 0 not started, 1 in progress, 2 finished successfully, 3 finished with
 * failure). A bulk stays in progress until no operation is open, even after one failed, where
 * Magento already answers "finished with failure" (magento/magento2#36911).
 */
import { expect } from 'chai';
import { bulkStatus } from '../../../modules/Dispensary/AsynchronousOperations/Model/BulkStatus.js';
import { Dispensary } from '../Recommendation/support.js';
import { deleteTopology, QUEUE_MODES } from './support.js';

const ADD = '/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item';

describe('Bulk status codes', () => {
  it('should follow the rule for every mix of operation statuses', () => {
    const of = (...statuses: number[]) => bulkStatus(statuses.map((status) => ({ status })));
    expect(of(4, 4)).to.equal(0);
    expect(of(1, 4)).to.equal(1);
    expect(of(3, 4, 4)).to.equal(1); // Magento: 3
    expect(of(3, 2)).to.equal(1); // a retriable failure goes back to the queue
    expect(of(1, 1)).to.equal(2);
    expect(of(1, 3)).to.equal(3);
    expect(of(1, 5)).to.equal(3);
  });
});

for (const mode of QUEUE_MODES) {
  describe(`Bulk status while operations are open, on the ${mode.name} queue${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
    this.timeout(60_000);
    let d: Dispensary;
    let options: ReturnType<(typeof QUEUE_MODES)[number]['options']>;
    before(async function () {
      if (mode.unavailable) return this.skip();
      options = mode.options();
      d = await Dispensary.start(options);
      await d.products('S-1', 'S-2');
    });
    after(async () => {
      await d?.stop();
      if (mode.name === 'amqp' && options) await deleteTopology(options.amqpUrl!, options.queuePrefix);
    });

    const status = async (uuid: string) => {
      const short = await d.request().get(`/rest/V1/bulk/${uuid}/status`).set('Authorization', `Bearer ${d.token}`);
      const detailed = await d
        .request()
        .get(`/rest/V1/bulk/${uuid}/detailed-status`)
        .set('Authorization', `Bearer ${d.token}`);
      expect(detailed.body.status).to.equal(short.body.status);
      return {
        status: short.body.status as number,
        operations: (short.body.operations_list as { status: number }[]).map((o) => o.status),
      };
    };
    const consume = async (max: number) => {
      const result = await d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', String(max));
      expect(result.code, result.err.join('\n')).to.equal(0);
    };

    it('should say not started, then in progress after a failure while others are open, then finished with failure', async () => {
      const r = await d.recommendation();
      const res = await d
        .request()
        .post(ADD)
        .set('Authorization', `Bearer ${d.token}`)
        .send([
          { recommendationId: r.recommendation_id, recommendation: { items: [{ sku: 'NOT-IN-CATALOG', qty: 1 }] } },
          { recommendationId: r.recommendation_id, recommendation: { items: [{ sku: 'S-1', qty: 1 }] } },
          { recommendationId: r.recommendation_id, recommendation: { items: [{ sku: 'S-2', qty: 1 }] } },
        ]);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const uuid = res.body.bulk_uuid as string;
      expect(await status(uuid)).to.deep.equal({ status: 0, operations: [4, 4, 4] });
      await consume(1);
      expect(await status(uuid)).to.deep.equal({ status: 1, operations: [3, 4, 4] });
      await consume(2);
      expect(await status(uuid)).to.deep.equal({ status: 3, operations: [3, 1, 1] });
    });

    it('should say finished successfully once every operation completed', async () => {
      const r = await d.recommendation();
      const res = await d
        .request()
        .post(ADD)
        .set('Authorization', `Bearer ${d.token}`)
        .send([{ recommendationId: r.recommendation_id, recommendation: { items: [{ sku: 'S-1', qty: 2 }] } }]);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      await consume(1);
      expect(await status(res.body.bulk_uuid as string)).to.deep.equal({ status: 2, operations: [1] });
    });
  });
}
