import { expect } from 'chai';
import { startFlow, WITH_NOTES, type Flow } from './support/recommendationFlow.js';

/** The example module's extension attribute (own table, filled by plugins) and its observer. */
describe('Acme_RecommendationNotes: extension attributes and an observer', () => {
  let flow: Flow;
  let patientId: number;
  let memoBlind: string;
  before(async () => {
    flow = await startFlow({ modules: WITH_NOTES });
    memoBlind = await flow.t.integrationToken({
      allStores: true,
      resources: ['Dispensary_Recommendation::recommendation', 'Dispensary_Recommendation::patient'],
    });
    const patient = await as(flow.token)
      .post('/rest/V1/dispensary/patient')
      .send({ patient: { firstname: 'Memo', lastname: 'Test', email: 'memo@example.com' } });
    patientId = patient.body.patient_id as number;
  });
  after(async () => flow?.t.stop());

  function as(token: string) {
    const agent = flow.t.request();
    return {
      post: (url: string) => agent.post(url).set('Authorization', `Bearer ${token}`),
      get: (url: string) => agent.get(url).set('Authorization', `Bearer ${token}`),
    };
  }
  const create = (recommendation: unknown) =>
    as(flow.token).post(`/rest/V1/dispensary/patient/${patientId}/recommendation`).send({ recommendation });
  const read = (id: string, token = flow.token) => as(token).get(`/rest/V1/dispensary/recommendation/${id}`);

  it('should accept practitioner_memo on creation, store it in its own table and answer it', async () => {
    const res = await create({ items: ['VIT-D3'], extension_attributes: { practitioner_memo: 'Review in March' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.extension_attributes).to.deep.equal({ practitioner_memo: 'Review in March', item_changes: 0 });
    expect(
      await flow.t.app
        .knex('acme_recommendation_memo')
        .where({ recommendation_id: res.body.recommendation_id })
        .first(),
    ).to.include({ memo: 'Review in March' });
    expect((await read(res.body.recommendation_id)).body.extension_attributes).to.deep.equal({
      practitioner_memo: 'Review in March',
      item_changes: 0,
    });
  });

  it('should answer 400 naming the field when practitioner_memo is not a string, and create nothing', async () => {
    const before = await flow.t.app.knex('dispensary_recommendation').count({ n: '*' }).first();
    const res = await create({ extension_attributes: { practitioner_memo: 5 } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      message:
        'Error occurred during "extension_attributes" processing. Error occurred during "practitioner_memo" processing. Invalid type for value: "5". Expected Type: "string".',
      parameters: { fieldName: 'recommendation.extension_attributes.practitioner_memo' },
    });
    expect(await flow.t.app.knex('dispensary_recommendation').count({ n: '*' }).first()).to.deep.equal(before);
  });

  it('should count the items Add, Update and Delete Items changed (the observer), shown by the repository', async () => {
    const created = (await create({ extension_attributes: { practitioner_memo: null } })).body as {
      recommendation_id: string;
    };
    const url = `/rest/V1/dispensary/recommendation/${created.recommendation_id}/item`;
    const auth = { Authorization: `Bearer ${flow.token}` };
    const added = await flow.t
      .request()
      .post(url)
      .set(auth)
      .send({
        recommendation: {
          items: [
            { sku: 'VIT-D3', qty: 1 },
            { sku: 'OMEGA-3', qty: 1 },
          ],
        },
      });
    expect(added.status).to.equal(200);
    expect((await read(created.recommendation_id)).body.extension_attributes.item_changes).to.equal(2);
    await flow.t
      .request()
      .put(url)
      .set(auth)
      .send({
        recommendation: {
          items: [
            { sku: 'VIT-D3', qty: 4 },
            { sku: 'NOT-THERE', qty: 1 },
          ],
        },
      });
    expect((await read(created.recommendation_id)).body.extension_attributes.item_changes).to.equal(3);
    await flow.t
      .request()
      .delete(url)
      .query({ id: [added.body.items[1].item_id] })
      .set(auth);
    expect((await read(created.recommendation_id)).body.extension_attributes).to.deep.equal({
      practitioner_memo: null,
      item_changes: 4,
    });
    // A request that fails changes nothing, the observer's count included.
    const refused = await flow.t
      .request()
      .post(url)
      .set(auth)
      .send({ recommendation: { items: [{ sku: 'NO-SUCH-SKU', qty: 1 }] } });
    expect(refused.status).to.equal(400);
    expect((await read(created.recommendation_id)).body.extension_attributes.item_changes).to.equal(4);
  });

  it('should hide practitioner_memo from a caller without Acme_RecommendationNotes::memo', async () => {
    const created = (await create({ extension_attributes: { practitioner_memo: 'Private' } })).body as {
      recommendation_id: string;
    };
    const res = await read(created.recommendation_id, memoBlind);
    expect(res.status).to.equal(200);
    expect(res.body.extension_attributes).to.deep.equal({ item_changes: 0 });
  });

  it('should show the attributes in the schema and the observer in dev:event:list', async () => {
    const schema = (await flow.t.request().get('/rest/default/schema?services=all')).body;
    const get = schema.paths['/V1/dispensary/recommendation/{recommendationId}'].get.responses['200'].schema;
    expect(get.properties.extension_attributes.properties).to.deep.equal({
      practitioner_memo: { type: 'string', 'x-resources': ['Acme_RecommendationNotes::memo'] },
      item_changes: { type: 'integer' },
      noted_item_count: { type: 'integer' },
    });
    const listed = await flow.t.cli('dev:event:list', 'dispensary_recommendation_items_add_after');
    expect(listed.code).to.equal(0);
    expect(listed.out).to.include(
      '    1. acme_recommendation_notes_count_changes (Acme\\RecommendationNotes\\Observer\\CountItemChanges)',
    );
  });
});
