/**
 * The "Asynchronous and bulk web API" walkthrough (docs/web-api.md; the README's until issue 22),
 * step by step as its curl commands run it (a token bound to the north_clinic practice): the bulk
 * under north_clinic, a consumer, then the bulk's status under north_clinic. Its status curl must
 * name that store: under /rest/V1 (the default store) the store-bound token answers 401, saying it
 * is bound to another store.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { Dispensary } from '../Recommendation/support.js';

describe("docs/web-api.md: the async walkthrough's commands", function () {
  this.timeout(60_000);
  let d: Dispensary;
  let token: string;
  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('north_clinic', 'North Clinic');
    token = await d.t.integrationToken({ name: 'north-app', store: 'north_clinic' });
    await d.products('VITD-1000', 'OMEGA-3');
  });
  after(() => d?.stop());

  const page = () => readFileSync(path.join(PROJECT_ROOT, 'docs', 'web-api.md'), 'utf8');

  it('should ask for the status under the store the token is bound to, as docs/web-api.md does', () => {
    const section = page().split('## Asynchronous and bulk web API')[1]!.split('\n## ')[0]!;
    expect(section).to.contain(
      'curl -s http://localhost:3000/rest/north_clinic/V1/bulk/$BULK/status -H "Authorization: Bearer $TOKEN"',
    );
    expect(section).to.not.match(/\/rest\/V1\/bulk\/\$BULK/);
  });

  it('should answer the bulk, run it, and tell its status under north_clinic', async () => {
    const patient = await d.call('post', 'north_clinic', '/dispensary/patient', token).send({
      patient: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' },
    });
    expect(patient.status, JSON.stringify(patient.body)).to.equal(200);
    const rec = await d
      .call('post', 'north_clinic', `/dispensary/patient/${patient.body.patient_id}/recommendation`, token)
      .send({
        recommendation: { note: 'Winter plan', items: ['VITD-1000'] },
      });
    expect(rec.status, JSON.stringify(rec.body)).to.equal(200);
    const REC = rec.body.recommendation_id as string;
    const bulk = await d
      .request()
      .post('/rest/north_clinic/async/bulk/V1/dispensary/recommendation/byRecommendationId/item')
      .set('Authorization', `Bearer ${token}`)
      .send([
        { recommendationId: REC, recommendation: { items: [{ sku: 'OMEGA-3', qty: 1 }] } },
        { recommendationId: REC, recommendation: { items: [{ sku: 'VITD-1000', qty: 1 }] } },
      ]);
    expect(bulk.status, JSON.stringify(bulk.body)).to.equal(202);
    const BULK = bulk.body.bulk_uuid as string;
    const consumed = await d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', '2');
    expect(consumed.code, consumed.err.join('\n')).to.equal(0);

    const status = await d
      .request()
      .get(`/rest/north_clinic/V1/bulk/${BULK}/status`)
      .set('Authorization', `Bearer ${token}`);
    expect(status.status, JSON.stringify(status.body)).to.equal(200);
    expect(status.body.operations_list.map((o: { status: number }) => o.status)).to.deep.equal([1, 1]);

    // What the README said before:  the default store, where the token does not reach.
    const before = await d.request().get(`/rest/V1/bulk/${BULK}/status`).set('Authorization', `Bearer ${token}`);
    expect(before.status).to.equal(401);
    expect(before.body).to.deep.equal({
      message:
        'The token is bound to another store and cannot be used with the store "%storeCode". Use the URL of its own store.',
      parameters: { storeCode: 'default' },
    });
  });
});
