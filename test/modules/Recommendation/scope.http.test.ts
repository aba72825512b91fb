import { expect } from 'chai';
import { Dispensary, ok, type Recommendation } from './support.js';

describe('Recommendation: scope isolation', () => {
  let d: Dispensary;
  let r: Recommendation;
  let patientId: number;
  let alphaToken: string;
  let betaToken: string;
  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('alpha');
    await d.t.createStore('beta');
    await d.products('S-1', 'S-2');
    alphaToken = await d.t.integrationToken({ store: 'alpha' });
    betaToken = await d.t.integrationToken({ store: 'beta' });
    patientId = await d.patient('alpha');
    r = ok(await d.createRecommendation(patientId, { recommendation: { items: ['S-1'] } }, 'alpha'));
  });
  after(async () => d?.stop());

  const NOT_FOUND = { message: 'No such entity with %fieldName = %fieldValue' };

  for (const [who, token] of [
    ['an all-stores token', () => d.token],
    ['a token of that store', () => betaToken],
  ] as const) {
    describe(`when a recommendation of store alpha is used under store beta with ${who}`, () => {
      it('should answer 404 on every route, exactly as if it did not exist, and change nothing', async () => {
        const rec = `/rest/beta/V1/dispensary/recommendation/${r.recommendation_id}`;
        const auth = `Bearer ${token()}`;
        const answers = [
          await d.request().get(rec).set('Authorization', auth),
          await d
            .request()
            .post(`${rec}/item`)
            .set('Authorization', auth)
            .send({ recommendation: { items: [{ sku: 'S-2', qty: 1 }] } }),
          await d
            .request()
            .put(`${rec}/item`)
            .set('Authorization', auth)
            .send({ recommendation: { items: [{ sku: 'S-1', qty: 5 }] } }),
          await d.request().delete(`${rec}/item?id[]=${r.items[0]!.item_id}`).set('Authorization', auth),
        ];
        for (const res of answers) {
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.include(NOT_FOUND);
          expect(res.body.parameters).to.deep.equal({
            fieldName: 'recommendation_id',
            fieldValue: r.recommendation_id,
          });
        }
        expect(await d.read(r.recommendation_id, 'alpha')).to.deep.equal(r);
      });

      it('should answer 404 for the patient and for creating a recommendation for it', async () => {
        const auth = `Bearer ${token()}`;
        expect(
          (await d.request().get(`/rest/beta/V1/dispensary/patient/${patientId}`).set('Authorization', auth)).status,
        ).to.equal(404);
        const create = await d
          .request()
          .post(`/rest/beta/V1/dispensary/patient/${patientId}/recommendation`)
          .set('Authorization', auth);
        expect(create.status).to.equal(404);
      });
    });
  }

  describe('when the default scope (/rest/V1) is used for data of another store', () => {
    it('should answer 404', async () => {
      const res = await d
        .request()
        .get(`/rest/V1/dispensary/recommendation/${r.recommendation_id}`)
        .set('Authorization', `Bearer ${d.token}`);
      expect(res.status).to.equal(404);
    });
  });

  describe("when the store's own token is used under its store", () => {
    it('should read and change the recommendation', async () => {
      const rec = `/rest/alpha/V1/dispensary/recommendation/${r.recommendation_id}`;
      expect((await d.request().get(rec).set('Authorization', `Bearer ${alphaToken}`)).status).to.equal(200);
      const res = await d
        .request()
        .post(`${rec}/item`)
        .set('Authorization', `Bearer ${alphaToken}`)
        .send({ recommendation: { items: [{ sku: 'S-2', qty: 1 }] } });
      expect(ok(res).items.map((i) => i.sku)).to.deep.equal(['S-1', 'S-2']);
      await d
        .request()
        .delete(`${rec}/item?id[]=${res.body.items[1].item_id}`)
        .set('Authorization', `Bearer ${alphaToken}`);
    });
  });

  describe('when the scope names no store', () => {
    it('should answer 400 naming the unknown store code', async () => {
      const res = await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } }, 'nowhere');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'The store code "%storeCode" is unknown. Verify the store and try again.',
        parameters: { storeCode: 'nowhere' },
      });
    });
  });

  describe('when a known path is called with another method', () => {
    it('should answer 404 Request does not match any route.', async () => {
      const res = await d
        .request()
        .patch(`/rest/alpha/V1/dispensary/recommendation/${r.recommendation_id}/item`)
        .set('Authorization', `Bearer ${d.token}`)
        .send({ recommendation: { items: [] } });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ message: 'Request does not match any route.' });
    });
  });

  describe('when the all scope is used', () => {
    it('should see and change the recommendations of every store', async () => {
      const other = await d.recommendation({ recommendation: { items: ['S-2'] } }, 'beta');
      expect(ok(await d.get(r.recommendation_id, 'all')).store_id).to.equal(r.store_id);
      expect(ok(await d.get(other.recommendation_id, 'all')).store_id).to.equal(other.store_id);
      const updated = ok(
        await d.update(other.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 4 }] } }, 'all'),
      );
      expect(updated.items[0]!.qty).to.equal(4);
      expect(updated.store_id).to.equal(other.store_id);
    });
  });
});
