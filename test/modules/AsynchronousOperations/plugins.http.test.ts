/**
 * A queued operation meets the same plugins and unit of work as the synchronous route: the
 * fixture module's after plugin changes the stored result, and a plugin that throws after the
 * service wrote rolls the write back and fails the operation.
 */
import { expect } from 'chai';
import { FAIL_AFTER_WRITE } from '../Recommendation/fixtures/Fixture/RecommendationPlugins/Plugin/ItemsPlugin.js';
import { Dispensary, withFixtureModules } from '../Recommendation/support.js';

describe("Async operations run through the route's plugins and unit of work", function () {
  this.timeout(30_000);
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start({ ...withFixtureModules(), amqpUrl: null });
    await d.products('F-1', 'F-2');
  });
  after(async () => d?.stop());

  async function runAsync(
    recommendationId: string,
    items: unknown[],
  ): Promise<{ status: number; result_serialized_data: string | null; result_message: string }> {
    const res = await d
      .request()
      .post('/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item')
      .set('Authorization', `Bearer ${d.token}`)
      .send([{ recommendationId, recommendation: { items } }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const consumed = await d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', '1');
    expect(consumed.code, consumed.err.join('\n')).to.equal(0);
    const status = await d
      .request()
      .get(`/rest/V1/bulk/${res.body.bulk_uuid}/detailed-status`)
      .set('Authorization', `Bearer ${d.token}`);
    return status.body.operations_list[0];
  }

  it('should store what the after plugin made of the answer', async () => {
    const r = await d.recommendation();
    const op = await runAsync(r.recommendation_id, [{ sku: 'F-1', qty: 1 }]);
    expect(op.status).to.equal(1);
    expect(JSON.parse(op.result_serialized_data!)).to.include({ plugin_note: 'saw 1 item(s)' });
  });

  it('should roll back the write and fail the operation when a plugin throws after it', async () => {
    const r = await d.recommendation();
    const op = await runAsync(r.recommendation_id, [{ sku: 'F-2', qty: 1, note: FAIL_AFTER_WRITE }]);
    expect(op).to.include({ status: 3, error_code: 500 });
    expect(op.result_message).to.equal(
      'Something went wrong while processing the request. Please see the log for details.',
    );
    expect((await d.read(r.recommendation_id)).items).to.deep.equal([]);
  });
});
