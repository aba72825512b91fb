import { expect } from 'chai';
import { Dispensary, inputErrors, ok, skus, TIMESTAMP, UUID, type Recommendation } from './support.js';

describe('Recommendation: creating and reading recommendations', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('alpha');
    await d.products('REC-1', 'REC-2', 'Rec-Three');
    await d.product('REC-OUT', { inStock: false });
    await d.product('REC-OFF', { status: 2 });
  });
  after(async () => d?.stop());

  describe('when created without a body', () => {
    let r: Recommendation;
    let patientId: number;
    before(async () => {
      patientId = await d.patient('default');
      r = ok(await d.createRecommendation(patientId));
    });

    it('should answer an empty comprehensive recommendation with every field of the contract', () => {
      expect(r).to.have.all.keys(
        'recommendation_id',
        'patient_id',
        'store_id',
        'format',
        'status',
        'note',
        'notify_email',
        'notify_sms',
        'created_at',
        'updated_at',
        'items',
      );
      expect(r.recommendation_id).to.match(UUID);
      expect(r).to.include({
        patient_id: patientId,
        store_id: 1,
        format: 'comprehensive',
        status: 'pending',
        note: null,
        notify_email: false,
        notify_sms: false,
      });
      expect(r.items).to.deep.equal([]);
    });

    it('should stamp created_at and updated_at in UTC as YYYY-MM-DD HH:MM:SS', () => {
      expect(r.created_at).to.match(TIMESTAMP);
      expect(r.updated_at).to.equal(r.created_at);
      const stamped = Date.parse(`${r.created_at.replace(' ', 'T')}Z`);
      expect(Math.abs(Date.now() - stamped)).to.be.below(60_000);
    });

    it('should answer the same recommendation on GET', async () => {
      expect(ok(await d.get(r.recommendation_id))).to.deep.equal(r);
    });

    it('should also create one from a body without the recommendation key', async () => {
      const res = await d.createRecommendation(patientId, {});
      expect(ok(res).format).to.equal('comprehensive');
    });
  });

  describe('when created in the comprehensive format', () => {
    let r: Recommendation;
    before(async () => {
      r = await d.recommendation({
        recommendation: {
          note: 'Take with food',
          notify_email: true,
          notify_sms: 'false',
          items: [
            {
              sku: ' rec-2 ',
              qty: '3',
              autoship_interval: '30D',
              note: 'morning',
              fulfillment_type: 'lc',
              doctor_id: '7',
              location_id: 9,
            },
            { sku: 'REC-OUT', qty: 1 },
            { sku: 'REC-2', qty: 9, note: 'ignored duplicate' },
          ],
        },
      });
    });

    it('should record the format and the recommendation fields', () => {
      expect(r).to.include({ format: 'comprehensive', note: 'Take with food', notify_email: true, notify_sms: false });
    });

    it('should store each item with canonical values, its sku spelled as in the catalog', () => {
      expect(r.items[0]).to.deep.include({
        sku: 'REC-2',
        qty: 3,
        autoship_interval: '30d',
        note: 'morning',
        fulfillment_type: 'LC',
        doctor_id: 7,
        location_id: 9,
        availability: 'in stock',
      });
      expect(r.items[0]!.item_id).to.match(UUID);
    });

    it('should keep the first occurrence of a repeated sku', () => {
      expect(skus(r)).to.deep.equal(['REC-2', 'REC-OUT']);
      expect(r.items[0]!.qty).to.equal(3);
    });

    it('should give defaults to absent options and availability from the catalog', () => {
      expect(r.items[1]).to.deep.include({
        sku: 'REC-OUT',
        qty: 1,
        autoship_interval: 'once',
        note: null,
        fulfillment_type: 'automatic',
        doctor_id: null,
        location_id: null,
        availability: 'out of stock',
      });
    });
  });

  describe('when created in the simple format', () => {
    it('should turn every sku into an item with qty 1 and default options', async () => {
      const r = await d.recommendation({
        recommendation: { items: ['rec-1', ' Rec-Three', 'REC-1'], notify_sms: true },
      });
      expect(r.format).to.equal('simple');
      expect(r.notify_sms).to.equal(true);
      expect(skus(r)).to.deep.equal(['REC-1', 'Rec-Three']);
      for (const item of r.items) {
        expect(item).to.deep.include({
          qty: 1,
          autoship_interval: 'once',
          note: null,
          fulfillment_type: 'automatic',
          doctor_id: null,
          location_id: null,
        });
      }
    });

    it('should answer 400 for a mix of skus and item objects, creating nothing', async () => {
      const patientId = await d.patient();
      const errors = inputErrors(
        await d.createRecommendation(patientId, { recommendation: { items: ['REC-1', { sku: 'REC-2', qty: 1 }] } }),
      );
      expect(errors).to.deep.equal([
        {
          message:
            '"%fieldName" mixes skus (simple format) and item objects (comprehensive format). Use one format for every item.',
          parameters: { fieldName: 'recommendation.items' },
        },
      ]);
      expect(await d.t.app.knex('dispensary_recommendation').where({ patient_id: patientId })).to.have.length(0);
    });

    it('should answer 400 for an empty sku or one longer than 64 characters', async () => {
      const patientId = await d.patient();
      const errors = inputErrors(
        await d.createRecommendation(patientId, { recommendation: { items: ['  ', 'x'.repeat(65)] } }),
      );
      expect(errors.map((e) => e.parameters.fieldName)).to.deep.equal([
        'recommendation.items[0]',
        'recommendation.items[1]',
      ]);
    });
  });

  describe('when a sku cannot be added', () => {
    it('should answer 400 naming every unknown or disabled sku, and create nothing', async () => {
      const patientId = await d.patient();
      const errors = inputErrors(
        await d.createRecommendation(patientId, {
          recommendation: {
            items: [
              { sku: 'REC-1', qty: 1 },
              { sku: 'NO-SUCH', qty: 1 },
              { sku: 'rec-off', qty: 2 },
            ],
          },
        }),
      );
      expect(errors).to.deep.equal([
        {
          message: 'The product with SKU "%sku" does not exist. Verify "%fieldName" and try again.',
          parameters: { sku: 'NO-SUCH', fieldName: 'recommendation.items[1].sku' },
        },
        {
          message:
            'The product with SKU "%sku" is disabled and cannot be added to a recommendation. Verify "%fieldName" and try again.',
          parameters: { sku: 'rec-off', fieldName: 'recommendation.items[2].sku' },
        },
      ]);
      expect(await d.t.app.knex('dispensary_recommendation').where({ patient_id: patientId })).to.have.length(0);
    });

    it('should name the sku in the simple format too', async () => {
      const patientId = await d.patient();
      const res = await d.createRecommendation(patientId, { recommendation: { items: ['NOPE-1'] } });
      expect(res.status).to.equal(400);
      expect(res.body.parameters).to.deep.equal({ sku: 'NOPE-1', fieldName: 'recommendation.items[0].sku' });
    });
  });

  describe('when the body is invalid', () => {
    it('should answer 400 for a note over 2000 characters and non-boolean notify flags', async () => {
      const patientId = await d.patient();
      const errors = inputErrors(
        await d.createRecommendation(patientId, {
          recommendation: { note: 'n'.repeat(2001), notify_email: 'maybe', notify_sms: 3 },
        }),
      );
      expect(errors.map((e) => e.parameters.fieldName)).to.deep.equal([
        'recommendation.note',
        'recommendation.notify_email',
        'recommendation.notify_sms',
      ]);
    });

    it('should accept a note of exactly 2000 characters', async () => {
      const r = await d.recommendation({ recommendation: { note: 'n'.repeat(2000) } });
      expect(r.note).to.have.length(2000);
    });

    it('should answer 400 naming an unknown recommendation field, format and status included', async () => {
      const patientId = await d.patient();
      const errors = inputErrors(
        await d.createRecommendation(patientId, { recommendation: { format: 'simple', status: 'done' } }),
      );
      expect(errors.map((e) => e.parameters.fieldName)).to.deep.equal([
        'recommendation.format',
        'recommendation.status',
      ]);
    });

    it('should answer 400 for more than 1000 items with a clear message', async () => {
      const patientId = await d.patient();
      const items = Array.from({ length: 1001 }, (_, i) => `SKU-${i}`);
      const res = await d.createRecommendation(patientId, { recommendation: { items } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'A request may carry at most %max items; "%fieldName" has %count.',
        parameters: { max: 1000, fieldName: 'recommendation.items', count: 1001 },
      });
    });
  });

  describe('when the patient is not in the scope', () => {
    it('should answer 404 for a patient that does not exist', async () => {
      const res = await d.createRecommendation(424242, undefined);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({
        message: 'No such entity with %fieldName = %fieldValue',
        parameters: { fieldName: 'patient_id', fieldValue: 424242 },
      });
    });

    it('should answer 404 for a patient of another store', async () => {
      const patientId = await d.patient('alpha');
      const res = await d.createRecommendation(patientId, undefined, 'default');
      expect(res.status).to.equal(404);
    });

    it("should create it in the patient's store under the all scope", async () => {
      const patientId = await d.patient('alpha');
      const r = ok(await d.createRecommendation(patientId, { recommendation: { items: ['REC-1'] } }, 'all'));
      const alpha = (await d.call('get', 'all', '/store/storeViews')).body.find(
        (s: { code: string }) => s.code === 'alpha',
      );
      expect(r.store_id).to.equal(alpha.id);
      expect(ok(await d.get(r.recommendation_id, 'alpha')).recommendation_id).to.equal(r.recommendation_id);
      expect((await d.get(r.recommendation_id, 'default')).status).to.equal(404);
    });
  });

  describe('when a recommendation is read', () => {
    it('should answer 404 for an unknown id, a malformed one, and accept an upper-case UUID', async () => {
      const r = await d.recommendation();
      const unknown = await d.get('00000000-0000-4000-8000-000000000000');
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({
        message: 'No such entity with %fieldName = %fieldValue',
        parameters: { fieldName: 'recommendation_id', fieldValue: '00000000-0000-4000-8000-000000000000' },
      });
      expect((await d.get('not-a-uuid')).status).to.equal(404);
      expect(ok(await d.get(r.recommendation_id.toUpperCase())).recommendation_id).to.equal(r.recommendation_id);
    });
  });
});
