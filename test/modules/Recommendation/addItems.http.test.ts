import { expect } from 'chai';
import { Dispensary, inputErrors, ok, skus, type Recommendation } from './support.js';

describe('Recommendation: Add Items', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
    await d.products('A-1', 'A-2', 'A-3', 'A-4', 'Mixed-Case');
    await d.product('A-OUT', { inStock: false });
    await d.product('A-OFF', { status: 2 });
  });
  after(async () => d?.stop());

  describe('when the recommendation was created in the comprehensive format', () => {
    let r: Recommendation;
    before(async () => {
      r = await d.recommendation({
        recommendation: { items: [{ sku: 'A-1', qty: 2, note: 'keep me', fulfillment_type: 'LC' }] },
      });
    });

    it('should add new items after the existing ones and answer the whole recommendation', async () => {
      const res = ok(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'A-2', qty: 1 },
              { sku: 'A-OUT', qty: '4' },
            ],
          },
        }),
      );
      expect(res).to.include({
        recommendation_id: r.recommendation_id,
        patient_id: r.patient_id,
        format: 'comprehensive',
        status: 'pending',
      });
      expect(skus(res)).to.deep.equal(['A-1', 'A-2', 'A-OUT']);
      expect(res.items[2]).to.deep.include({ qty: 4, availability: 'out of stock' });
      expect(await d.read(r.recommendation_id)).to.deep.equal(res);
    });

    it('should ignore an item whose sku is already there, changing nothing about the existing item', async () => {
      const before = await d.read(r.recommendation_id);
      const res = ok(
        await d.add(r.recommendation_id, {
          recommendation: { items: [{ sku: ' a-1 ', qty: 9, note: 'replace?', fulfillment_type: '1L' }] },
        }),
      );
      expect(res.items).to.deep.equal(before.items);
    });
  });

  describe('when the recommendation was created in the simple format', () => {
    it('should add items all the same', async () => {
      const r = await d.recommendation({ recommendation: { items: ['A-1'] } });
      const res = ok(
        await d.add(r.recommendation_id, {
          recommendation: { items: [{ sku: 'A-3', qty: 3, autoship_interval: '2w' }] },
        }),
      );
      expect(res.format).to.equal('simple');
      expect(res.items.map((i) => [i.sku, i.qty, i.autoship_interval])).to.deep.equal([
        ['A-1', 1, 'once'],
        ['A-3', 3, '2w'],
      ]);
    });
  });

  describe('when one request names a sku several times', () => {
    it('should keep the first occurrence and ignore the later ones', async () => {
      const r = await d.recommendation();
      const res = ok(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'A-2', qty: 1, note: 'first' },
              { sku: 'A-3', qty: 1 },
              { sku: ' a-2', qty: 7, note: 'second' },
            ],
          },
        }),
      );
      expect(res.items.map((i) => [i.sku, i.qty, i.note])).to.deep.equal([
        ['A-2', 1, 'first'],
        ['A-3', 1, null],
      ]);
    });
  });

  describe('when skus differ from the catalog in case and spaces', () => {
    it('should match them and spell the item sku as the catalog does', async () => {
      const r = await d.recommendation();
      const res = ok(
        await d.add(r.recommendation_id, { recommendation: { items: [{ sku: '  mIXED-cASE ', qty: 1 }] } }),
      );
      expect(skus(res)).to.deep.equal(['Mixed-Case']);
      const again = ok(
        await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'MIXED-CASE', qty: 1 }] } }),
      );
      expect(again.items).to.deep.equal(res.items);
    });

    it("should follow the catalog when the product's sku is saved with another spelling", async () => {
      await d.product('Respelled');
      const r = await d.recommendation({ recommendation: { items: ['respelled'] } });
      expect(skus(r)).to.deep.equal(['Respelled']);
      await d.product('RESPELLED');
      expect(skus(await d.read(r.recommendation_id))).to.deep.equal(['RESPELLED']);
    });

    it('should not fold accents: é and e are different skus', async () => {
      await d.products('CAFÉ', 'CAFE');
      const r = await d.recommendation();
      const res = ok(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'café', qty: 1 },
              { sku: 'cafe', qty: 1 },
            ],
          },
        }),
      );
      expect(skus(res)).to.deep.equal(['CAFÉ', 'CAFE']);
    });
  });

  describe('when a sku is unknown or disabled', () => {
    it('should answer 400 naming every such sku and add none of the valid items', async () => {
      const r = await d.recommendation({ recommendation: { items: ['A-1'] } });
      const old = await d.ageRecommendation(r.recommendation_id);
      const errors = inputErrors(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'A-2', qty: 1 },
              { sku: 'GHOST', qty: 1 },
              { sku: 'a-off', qty: 1 },
              { sku: 'ghost ', qty: 2 },
            ],
          },
        }),
      );
      expect(errors.map((e) => e.parameters)).to.deep.equal([
        { sku: 'GHOST', fieldName: 'recommendation.items[1].sku' },
        { sku: 'a-off', fieldName: 'recommendation.items[2].sku' },
      ]);
      const stored = await d.read(r.recommendation_id);
      expect(skus(stored)).to.deep.equal(['A-1']);
      expect(stored.updated_at).to.equal(old);
    });

    it('should ignore, without an error, a sku already in the recommendation whose product was disabled since', async () => {
      await d.product('A-LATER-OFF');
      const r = await d.recommendation({ recommendation: { items: ['A-LATER-OFF'] } });
      await d.product('A-LATER-OFF', { status: 2 });
      const res = ok(await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'a-later-off', qty: 5 }] } }));
      expect(res.items).to.deep.equal(r.items);
    });
  });

  describe('updated_at', () => {
    it('should change when an item was added', async () => {
      const r = await d.recommendation();
      const old = await d.ageRecommendation(r.recommendation_id);
      const res = ok(await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'A-4', qty: 1 }] } }));
      expect(res.updated_at).not.to.equal(old);
      expect(res.created_at).to.equal(r.created_at);
      expect((await d.read(r.recommendation_id)).updated_at).to.equal(res.updated_at);
    });

    it('should not change when every item was ignored or none was sent', async () => {
      const r = await d.recommendation({ recommendation: { items: ['A-4'] } });
      const old = await d.ageRecommendation(r.recommendation_id);
      expect(
        ok(await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'a-4', qty: 3 }] } })).updated_at,
      ).to.equal(old);
      expect(ok(await d.add(r.recommendation_id, { recommendation: { items: [] } })).updated_at).to.equal(old);
    });
  });

  describe('the order of items', () => {
    it('should stay the order in which they were first added, across requests and deletions', async () => {
      const r = await d.recommendation({ recommendation: { items: ['A-3', 'A-1'] } });
      ok(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { sku: 'A-4', qty: 1 },
              { sku: 'A-2', qty: 1 },
            ],
          },
        }),
      );
      const read = await d.read(r.recommendation_id);
      expect(skus(read)).to.deep.equal(['A-3', 'A-1', 'A-4', 'A-2']);
      const afterDelete = ok(await d.remove(r.recommendation_id, [read.items[1]!.item_id]));
      expect(skus(afterDelete)).to.deep.equal(['A-3', 'A-4', 'A-2']);
      const readded = ok(await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'A-1', qty: 1 }] } }));
      expect(skus(readded)).to.deep.equal(['A-3', 'A-4', 'A-2', 'A-1']);
    });
  });

  describe('when the recommendation does not exist', () => {
    it('should answer 404 and not validate the catalog', async () => {
      const res = await d.add('00000000-0000-4000-8000-000000000001', {
        recommendation: { items: [{ sku: 'A-1', qty: 1 }] },
      });
      expect(res.status).to.equal(404);
      expect(res.body.parameters).to.deep.equal({
        fieldName: 'recommendation_id',
        fieldValue: '00000000-0000-4000-8000-000000000001',
      });
    });
  });
});
