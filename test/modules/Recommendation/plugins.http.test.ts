import { expect } from 'chai';
import { FAIL_AFTER_WRITE, ItemsPlugin } from './fixtures/Fixture/RecommendationPlugins/Plugin/ItemsPlugin.js';
import { Dispensary, ok, skus, withFixtureModules, type Recommendation } from './support.js';

/** The item operations as an extension point, with the fixture module's plugin enabled. */
describe('Recommendation: plugins on RecommendationItemManagementInterface', () => {
  let d: Dispensary;
  let r: Recommendation;
  before(async () => {
    d = await Dispensary.start(withFixtureModules());
    await d.products('P-1', 'P-2');
  });
  after(async () => d?.stop());
  beforeEach(async () => {
    r = await d.recommendation({ recommendation: { items: [{ sku: 'P-1', qty: 1 }] } });
    ItemsPlugin.seen.length = 0;
  });

  describe('when a client sends the single-item form', () => {
    it('should hand the plugin the validated request as a one-element items list', async () => {
      ok(
        await d.add(r.recommendation_id, {
          recommendation: { item: { sku: ' P-2 ', qty: '2', fullfillment_type: 'lc', item_id: 'x' } },
        }),
      );
      expect(ItemsPlugin.seen).to.deep.equal([
        {
          method: 'addItems',
          recommendationId: r.recommendation_id,
          argument: { items: [{ sku: 'P-2', qty: 2, fulfillment_type: 'LC' }] },
        },
      ]);
    });

    it('should do the same for Update Items through an around plugin', async () => {
      ok(await d.update(r.recommendation_id, { recommendation: { item: { sku: 'p-1', qty: 3 } } }));
      expect(ItemsPlugin.seen).to.deep.equal([
        { method: 'updateItems', recommendationId: r.recommendation_id, argument: { items: [{ sku: 'p-1', qty: 3 }] } },
      ]);
    });
  });

  describe('when an after plugin changes the result', () => {
    it('should answer the client what the plugin returned', async () => {
      const res = ok(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'P-2', qty: 1 },
              { sku: 'P-1', qty: 1 },
            ],
          },
        }),
      );
      expect(res.plugin_note).to.equal('saw 2 item(s)');
      expect(skus(res)).to.deep.equal(['P-1', 'P-2']);
    });
  });

  describe('when a plugin throws after the service wrote', () => {
    it('should answer 500 and keep nothing Add Items wrote', async () => {
      const old = await d.ageRecommendation(r.recommendation_id);
      const res = await d.add(r.recommendation_id, {
        recommendation: { items: [{ sku: 'P-2', qty: 1, note: FAIL_AFTER_WRITE }] },
      });
      expect(res.status).to.equal(500);
      expect(res.body.message).to.match(
        /^Internal Error\. Details are available in Magento log file\. Report ID: webapi-[0-9a-f]+$/,
      );
      const stored = await d.read(r.recommendation_id);
      expect(skus(stored)).to.deep.equal(['P-1']);
      expect(stored.updated_at).to.equal(old);
    });

    it('should keep nothing Update Items wrote', async () => {
      const res = await d.update(r.recommendation_id, {
        recommendation: { items: [{ sku: 'P-1', qty: 9, note: FAIL_AFTER_WRITE }] },
      });
      expect(res.status).to.equal(500);
      expect((await d.read(r.recommendation_id)).items).to.deep.equal(r.items);
    });

    it('should keep nothing Delete Items wrote', async () => {
      const res = await d.remove(r.recommendation_id, [r.items[0]!.item_id, 'plugin-fail']);
      expect(res.status).to.equal(500);
      expect((await d.read(r.recommendation_id)).items).to.deep.equal(r.items);
    });
  });
});
