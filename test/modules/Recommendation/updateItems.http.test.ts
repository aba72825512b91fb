import { expect } from 'chai';
import { Dispensary, inputErrors, ok, skus, type Recommendation } from './support.js';

describe('Recommendation: Update Items', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
    await d.products('U-1', 'U-2', 'U-3');
  });
  after(async () => d?.stop());

  const full = {
    sku: 'U-1',
    qty: 2,
    autoship_interval: '2w',
    note: 'evening',
    fulfillment_type: 'LC',
    doctor_id: 5,
    location_id: 6,
  };
  let r: Recommendation;
  beforeEach(async () => {
    r = await d.recommendation({ recommendation: { items: [full, { sku: 'U-2', qty: 1 }] } });
  });

  describe('when an item names a sku of the recommendation', () => {
    it('should replace the fields present and keep the absent ones', async () => {
      const res = ok(
        await d.update(r.recommendation_id, { recommendation: { items: [{ sku: 'U-1', qty: '7', note: 'night' }] } }),
      );
      expect(res.items[0]).to.deep.equal({ ...r.items[0], qty: 7, note: 'night' });
      expect(res.items[1]).to.deep.equal(r.items[1]);
      expect(await d.read(r.recommendation_id)).to.deep.equal(res);
    });

    it('should change every updatable field, with canonical values', async () => {
      const res = ok(
        await d.update(r.recommendation_id, {
          recommendation: {
            items: [
              {
                sku: 'U-2',
                qty: 10000,
                autoship_interval: '90D',
                note: 'n',
                fullfillment_type: '1l',
                doctor_id: '11',
                location_id: 12,
              },
            ],
          },
        }),
      );
      expect(res.items[1]).to.deep.equal({
        ...r.items[1],
        qty: 10000,
        autoship_interval: '90d',
        note: 'n',
        fulfillment_type: '1L',
        doctor_id: 11,
        location_id: 12,
      });
    });

    it('should reset a field sent as null to its default', async () => {
      const res = ok(
        await d.update(r.recommendation_id, {
          recommendation: {
            items: [
              {
                sku: 'U-1',
                qty: 2,
                autoship_interval: null,
                note: null,
                fulfillment_type: null,
                doctor_id: null,
                location_id: null,
              },
            ],
          },
        }),
      );
      expect(res.items[0]).to.deep.include({
        autoship_interval: 'once',
        note: null,
        fulfillment_type: 'automatic',
        doctor_id: null,
        location_id: null,
      });
    });

    it('should match the sku case-insensitively after trimming and keep the catalog spelling', async () => {
      const res = ok(await d.update(r.recommendation_id, { recommendation: { items: [{ sku: '  u-2 ', qty: 3 }] } }));
      expect(res.items[1]).to.deep.include({ sku: 'U-2', qty: 3 });
    });

    it('should apply several occurrences of one sku in order', async () => {
      const res = ok(
        await d.update(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'U-1', qty: 3, note: 'first' },
              { sku: 'u-1', qty: 4, doctor_id: 9 },
              { sku: 'U-1 ', qty: 5, note: 'last' },
            ],
          },
        }),
      );
      expect(res.items[0]).to.deep.include({ qty: 5, note: 'last', doctor_id: 9, autoship_interval: '2w' });
    });

    it('should keep the item ids and the order', async () => {
      const res = ok(
        await d.update(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'U-2', qty: 4 },
              { sku: 'U-1', qty: 4 },
            ],
          },
        }),
      );
      expect(res.items.map((i) => i.item_id)).to.deep.equal(r.items.map((i) => i.item_id));
    });
  });

  describe('when an item names a sku that is not in the recommendation', () => {
    it('should ignore it, even when the catalog does not know it, and update the others', async () => {
      const res = ok(
        await d.update(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'U-3', qty: 9 },
              { sku: 'NOT-IN-CATALOG', qty: 9 },
              { sku: 'U-2', qty: 8 },
            ],
          },
        }),
      );
      expect(skus(res)).to.deep.equal(['U-1', 'U-2']);
      expect(res.items[1]!.qty).to.equal(8);
    });

    it('should answer the recommendation unchanged when nothing matches', async () => {
      const res = ok(await d.update(r.recommendation_id, { recommendation: { items: [{ sku: 'U-3', qty: 9 }] } }));
      expect(res).to.deep.equal(r);
    });
  });

  describe('when the recommendation was created in the simple format', () => {
    it('should update its items all the same', async () => {
      const simple = await d.recommendation({ recommendation: { items: ['U-3'] } });
      const res = ok(
        await d.update(simple.recommendation_id, {
          recommendation: { items: [{ sku: 'u-3', qty: 6, autoship_interval: '1m' }] },
        }),
      );
      expect(res.format).to.equal('simple');
      expect(res.items[0]).to.deep.include({ sku: 'U-3', qty: 6, autoship_interval: '1m' });
    });
  });

  describe('when any item is invalid', () => {
    it('should answer 400 listing every invalid field and change nothing', async () => {
      const res = await d.update(r.recommendation_id, {
        recommendation: {
          items: [
            { sku: 'U-1', qty: 3 },
            { sku: 'U-2', qty: 0, doctor_id: -1 },
            { sku: 'U-2', fulfillment_type: 'x' },
          ],
        },
      });
      expect(inputErrors(res).map((e) => e.parameters.fieldName)).to.have.members([
        'recommendation.items[1].qty',
        'recommendation.items[1].doctor_id',
        'recommendation.items[2].qty',
        'recommendation.items[2].fulfillment_type',
      ]);
      expect(await d.read(r.recommendation_id)).to.deep.equal(r);
    });
  });

  describe('updated_at', () => {
    it('should change when a field changed', async () => {
      const old = await d.ageRecommendation(r.recommendation_id);
      const res = ok(await d.update(r.recommendation_id, { recommendation: { items: [{ sku: 'U-2', qty: 2 }] } }));
      expect(res.updated_at).not.to.equal(old);
      expect((await d.read(r.recommendation_id)).updated_at).to.equal(res.updated_at);
    });

    it('should not change when the values sent are the ones stored, or no sku matches', async () => {
      const old = await d.ageRecommendation(r.recommendation_id);
      const same = ok(
        await d.update(r.recommendation_id, {
          recommendation: { items: [{ ...full, sku: 'u-1', fulfillment_type: 'lc', autoship_interval: '2W' }] },
        }),
      );
      expect(same.updated_at).to.equal(old);
      const none = ok(await d.update(r.recommendation_id, { recommendation: { items: [{ sku: 'U-3', qty: 1 }] } }));
      expect(none.updated_at).to.equal(old);
    });
  });

  describe('when the recommendation does not exist', () => {
    it('should answer 404', async () => {
      const res = await d.update('00000000-0000-4000-8000-000000000002', {
        recommendation: { items: [{ sku: 'U-1', qty: 1 }] },
      });
      expect(res.status).to.equal(404);
    });
  });
});
