import { expect } from 'chai';
import { denied, Dispensary, ok, PATIENT_RESOURCE, RECOMMENDATION_RESOURCE, type Recommendation } from './support.js';
import type { InjectRequest } from '../../support/inject.js';

describe('Recommendation: tokens on the dispensary routes', () => {
  let d: Dispensary;
  let r: Recommendation;
  let patientId: number;
  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('alpha');
    await d.product('T-1');
    patientId = await d.patient('alpha');
    r = ok(await d.createRecommendation(patientId, { recommendation: { items: ['T-1'] } }, 'alpha'));
  });
  after(async () => d?.stop());

  /** Every recommendation route, under `scope`, with the Authorization header given (or none). */
  const recommendationRoutes = (scope: string, authorization?: string) => {
    const base = `/rest/${scope}/V1/dispensary`;
    const rec = `${base}/recommendation/${r.recommendation_id}`;
    const body = { recommendation: { items: [{ sku: 'T-1', qty: 2 }] } };
    const calls = [
      ['POST item', d.request().post(`${rec}/item`).send(body)],
      ['PUT item', d.request().put(`${rec}/item`).send(body)],
      ['DELETE item', d.request().delete(`${rec}/item?id[]=${r.items[0]!.item_id}`)],
      ['GET recommendation', d.request().get(rec)],
      ['POST recommendation', d.request().post(`${base}/patient/${patientId}/recommendation`)],
    ] as const;
    return calls.map(
      ([name, req]) => [name, authorization === undefined ? req : req.set('Authorization', authorization)] as const,
    );
  };
  const patientRoutes = (scope: string, authorization?: string) => {
    const calls = [
      [
        'POST patient',
        d
          .request()
          .post(`/rest/${scope}/V1/dispensary/patient`)
          .send({ patient: { firstname: 'a', lastname: 'b', email: 'auth@example.com' } }),
      ],
      ['GET patient', d.request().get(`/rest/${scope}/V1/dispensary/patient/${patientId}`)],
    ] as const;
    return calls.map(
      ([name, req]) => [name, authorization === undefined ? req : req.set('Authorization', authorization)] as const,
    );
  };

  /** `resource`: the ACL resource the 401 names, or the body it answers. */
  async function expectDenied(routes: readonly (readonly [string, InjectRequest])[], resource: string | object) {
    for (const [name, req] of routes) {
      const res = await req;
      expect(res.status, name).to.equal(401);
      expect(res.body, name).to.deep.equal(typeof resource === 'string' ? denied(resource) : resource);
    }
    // Nothing changed.
    expect((await d.read(r.recommendation_id)).items.map((i) => i.qty)).to.deep.equal([1]);
  }

  describe('when the token is missing', () => {
    it('should answer 401 on every recommendation and item route', async () => {
      await expectDenied(recommendationRoutes('alpha'), RECOMMENDATION_RESOURCE);
    });
    it('should answer 401 naming the patient resource on the patient routes', async () => {
      await expectDenied(patientRoutes('alpha'), PATIENT_RESOURCE);
    });
  });

  describe('when the token is malformed', () => {
    for (const header of [
      'Bearer',
      'Bearer short',
      'Token abcdefghijklmnopqrstuvwxyz012345',
      'Bearer ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
      'Bearer a b',
    ]) {
      it(`should answer 401 for "${header}"`, async () => {
        await expectDenied(recommendationRoutes('alpha', header), RECOMMENDATION_RESOURCE);
      });
    }
  });

  describe('when the token is unknown', () => {
    it('should answer 401', async () => {
      await expectDenied(
        recommendationRoutes('alpha', 'Bearer abcdefghijklmnopqrstuvwxyz012345'),
        RECOMMENDATION_RESOURCE,
      );
    });
  });

  describe('when the token was revoked', () => {
    it('should answer 401 at once', async () => {
      const token = await d.t.integrationToken({ name: 'to-revoke', allStores: true });
      expect((await d.get(r.recommendation_id, 'alpha').set('Authorization', `Bearer ${token}`)).status).to.equal(200);
      expect((await d.t.cli('integration:token:revoke', '--name', 'to-revoke')).code).to.equal(0);
      await expectDenied(recommendationRoutes('alpha', `Bearer ${token}`), RECOMMENDATION_RESOURCE);
    });
  });

  describe('when an admin token has expired', () => {
    it('should answer 401', async () => {
      expect((await d.t.cli('admin:user:create', '--username', 'expiring', '--password', 'secret123')).code).to.equal(
        0,
      );
      const login = await d
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'expiring', password: 'secret123' });
      expect(login.status).to.equal(200);
      const token = login.body as string;
      expect((await d.get(r.recommendation_id, 'alpha').set('Authorization', `Bearer ${token}`)).status).to.equal(200);
      await d.t.app.knex('integration_token').where({ kind: 'admin' }).update({ expires_at: '2000-01-01 00:00:00' });
      await expectDenied(recommendationRoutes('alpha', `Bearer ${token}`), RECOMMENDATION_RESOURCE);
    });
  });

  describe('when a store-bound token is used outside its store', () => {
    it('should answer 401 under another store and under all, saying the token is bound to another store', async () => {
      const token = await d.t.integrationToken({ store: 'default' });
      const otherStore = (storeCode: string) => ({
        message:
          'The token is bound to another store and cannot be used with the store "%storeCode". Use the URL of its own store.',
        parameters: { storeCode },
      });
      await expectDenied(recommendationRoutes('alpha', `Bearer ${token}`), otherStore('alpha'));
      await expectDenied(recommendationRoutes('all', `Bearer ${token}`), otherStore('admin'));
      await expectDenied(patientRoutes('alpha', `Bearer ${token}`), otherStore('alpha'));
    });

    it('should work in its own store', async () => {
      const token = await d.t.integrationToken({ store: 'alpha' });
      const res = await d
        .request()
        .post(`/rest/alpha/V1/dispensary/recommendation/${r.recommendation_id}/item`)
        .set('Authorization', `Bearer ${token}`)
        .send({ recommendation: { items: [{ sku: 'T-1', qty: 2 }] } });
      expect(ok(res).items).to.have.length(1);
    });
  });

  describe("when the token lacks the route's resource", () => {
    it('should answer 401 on the item routes for a token that holds only the patient resource', async () => {
      const token = await d.t.integrationToken({ allStores: true, resources: [PATIENT_RESOURCE] });
      await expectDenied(recommendationRoutes('alpha', `Bearer ${token}`), RECOMMENDATION_RESOURCE);
      expect((await patientRoutes('alpha', `Bearer ${token}`)[1]![1]).status).to.equal(200);
    });

    it('should answer 401 on the patient routes for a token that holds only the recommendation resource', async () => {
      const token = await d.t.integrationToken({ allStores: true, resources: [RECOMMENDATION_RESOURCE] });
      await expectDenied(patientRoutes('alpha', `Bearer ${token}`), PATIENT_RESOURCE);
      expect((await d.get(r.recommendation_id, 'alpha').set('Authorization', `Bearer ${token}`)).status).to.equal(200);
    });
  });

  describe('when the scheme word is in another case', () => {
    it('should accept the token', async () => {
      const res = await d
        .request()
        .get(`/rest/alpha/V1/dispensary/recommendation/${r.recommendation_id}`)
        .set('Authorization', `bEaReR ${d.token}`);
      expect(res.status).to.equal(200);
    });
  });
});
