/**
 * Issue 30: keys inside data objects are read in camelCase as well as snake_case (Magento's
 * ServiceInputProcessor) on the async and bulk forms too, since every form maps input in the same
 * place (InputMapper). Before, `autoshipInterval` inside an item was refused with
 * `Property "%fieldName" is not supported`.
 */
import { expect } from 'chai';
import { Dispensary } from '../Recommendation/support.js';
import { QUEUE_MODES } from './support.js';

describe('Async and bulk web API: camelCase keys inside data objects (issue 30)', function () {
  this.timeout(60_000);
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start(QUEUE_MODES[0]!.options());
    await d.products('C-1', 'C-2');
  });
  after(async () => d?.stop());

  const post = (path: string, body: unknown) =>
    d
      .request()
      .post(`/rest/default${path}`)
      .set('Authorization', `Bearer ${d.token}`)
      .send(body as object);

  it('should accept them on /async/V1/... and /async/bulk/V1/..., and the operations store the snake_case fields', async () => {
    const { recommendation_id: id } = await d.recommendation({ recommendation: { items: [] } });
    const single = await post(`/async/V1/dispensary/recommendation/${id}/item`, {
      recommendation: { items: [{ sku: 'C-1', qty: 1, autoshipInterval: '2d' }] },
    });
    expect(single.status, JSON.stringify(single.body)).to.equal(202);
    const bulk = await post('/async/bulk/V1/dispensary/recommendation/byRecommendationId/item', [
      { recommendationId: id, recommendation: { items: [{ sku: 'C-2', qty: 1, autoshipInterval: '3w' }] } },
    ]);
    expect(bulk.status, JSON.stringify(bulk.body)).to.equal(202);
    const consumed = await d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', '2');
    expect(consumed.code, consumed.err.join('\n')).to.equal(0);
    const read = await d.read(id);
    expect(read.items.map((item) => [item.sku, item.autoship_interval])).to.deep.equal([
      ['C-1', '2d'],
      ['C-2', '3w'],
    ]);
  });
});
