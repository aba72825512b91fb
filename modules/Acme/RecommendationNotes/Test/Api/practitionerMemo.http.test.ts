/**
 * A test kept in the module's own folder (`Test/`, as Magento modules carry theirs): run by `npm test`
 * with the project's tests, and alone by `npm test -- modules/Acme/RecommendationNotes`. It reaches
 * the runtime's test helpers through `#testing` (`dispensary-runtime/testing` from a module package).
 */
import { expect } from 'chai';
import { TestApp } from '#testing';

describe('Acme_RecommendationNotes (its own Test/ folder): the practitioner memo', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await TestApp.start({ modules: { Acme_RecommendationNotes: true } });
    token = await t.integrationToken({ allStores: true });
  });
  after(async () => t?.stop());

  const post = (url: string, body: object) => t.request().post(url).set('Authorization', `Bearer ${token}`).send(body);

  it('should store the memo sent on creation and answer it on a later read', async () => {
    const patient = await post('/rest/V1/dispensary/patient', {
      patient: { firstname: 'Memo', lastname: 'Own', email: 'memo-own@example.com' },
    });
    const created = await post(`/rest/V1/dispensary/patient/${patient.body.patient_id}/recommendation`, {
      recommendation: { extension_attributes: { practitioner_memo: 'Recheck in May' } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const read = await t
      .request()
      .get(`/rest/V1/dispensary/recommendation/${created.body.recommendation_id}`)
      .set('Authorization', `Bearer ${token}`);
    expect(read.body.extension_attributes).to.deep.equal({ practitioner_memo: 'Recheck in May', item_changes: 0 });
  });
});
