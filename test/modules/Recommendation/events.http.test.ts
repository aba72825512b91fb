import { expect } from 'chai';
import { RecordEvents } from './fixtures/Fixture/RecommendationEvents/Observer/RecordEvents.js';
import { REFUSE } from './fixtures/Fixture/RecommendationEvents/Observer/RefuseMarked.js';
import { Dispensary, ok, skus, withFixtureModules, type Recommendation } from './support.js';

/** The documented events of the dispensary (README), observed by the fixture module Fixture_RecommendationEvents. */
describe('Recommendation: events', () => {
  let d: Dispensary;
  let r: Recommendation;
  const names = () => RecordEvents.seen.map((e) => e.name);
  before(async () => {
    d = await Dispensary.start(withFixtureModules());
    await d.products('E-1', 'E-2', 'E-3');
  });
  after(async () => d?.stop());
  beforeEach(async () => {
    r = await d.recommendation({ recommendation: { note: 'plan', items: [{ sku: 'E-1', qty: 1 }] } });
    RecordEvents.seen.length = 0;
  });

  it('should dispatch dispensary_patient_save_after and dispensary_recommendation_save_after with the saved entities', async () => {
    const patientId = await d.patient('default', { lastname: 'Hopper' });
    const created = ok(await d.createRecommendation(patientId, { recommendation: { items: ['E-2'] } }));
    expect(names()).to.deep.equal(['dispensary_patient_save_after', 'dispensary_recommendation_save_after']);
    const [patient, saved] = RecordEvents.seen;
    expect(patient!.data.patient as { patient_id: number; lastname: string }).to.include({
      patient_id: patientId,
      lastname: 'Hopper',
    });
    expect(saved!.data.recommendation).to.deep.equal(created);
    expect(saved!.data.items).to.deep.equal([{ sku: 'E-2', qty: 1 }]);
  });

  it('should dispatch dispensary_recommendation_items_add_after with the request items, the added and the ignored', async () => {
    const res = ok(
      await d.add(r.recommendation_id, {
        recommendation: {
          items: [
            { sku: 'e-1', qty: 2 },
            { sku: 'E-2', qty: 3 },
            { sku: 'e-2', qty: 4 },
          ],
        },
      }),
    );
    expect(names()).to.deep.equal(['dispensary_recommendation_items_add_after']);
    const data = RecordEvents.seen[0]!.data;
    // The observers see the service's answer, before after plugins (the fixture plugin adds plugin_note).
    const { plugin_note: pluginNote, ...answered } = res;
    expect(pluginNote).to.be.a('string');
    expect(data.recommendation).to.deep.equal(answered);
    expect(data.items).to.deep.equal([
      { sku: 'e-1', qty: 2 },
      { sku: 'E-2', qty: 3 },
      { sku: 'e-2', qty: 4 },
    ]);
    expect(data.added).to.deep.equal([res.items[1]]);
    expect(data.ignored).to.deep.equal([
      { sku: 'e-1', qty: 2 },
      { sku: 'e-2', qty: 4 },
    ]);
  });

  it('should dispatch dispensary_recommendation_items_update_after with the updated items as stored and the ignored', async () => {
    const res = ok(
      await d.update(r.recommendation_id, {
        recommendation: {
          items: [
            { sku: 'E-1', qty: 5 },
            { sku: 'E-3', qty: 1 },
          ],
        },
      }),
    );
    const data = RecordEvents.seen[0]!.data;
    expect(RecordEvents.seen[0]!.name).to.equal('dispensary_recommendation_items_update_after');
    expect(data.updated).to.deep.equal([res.items[0]]);
    expect(data.ignored).to.deep.equal([{ sku: 'E-3', qty: 1 }]);
  });

  it('should dispatch dispensary_recommendation_items_delete_after with the removed items and the ignored ids', async () => {
    const res = ok(await d.remove(r.recommendation_id, [r.items[0]!.item_id, 'not-an-item']));
    const data = RecordEvents.seen[0]!.data;
    expect(RecordEvents.seen[0]!.name).to.equal('dispensary_recommendation_items_delete_after');
    const { plugin_note: _pluginNote, ...answered } = res;
    expect(data.recommendation).to.deep.equal(answered);
    expect(data.removed).to.deep.equal([r.items[0]]);
    expect(data.ignored).to.deep.equal(['not-an-item']);
  });

  describe('when an observer throws', () => {
    it('should roll the whole request back: nothing Add Items wrote is kept', async () => {
      const res = await d.add(r.recommendation_id, {
        recommendation: { items: [{ sku: 'E-2', qty: 1, note: REFUSE }] },
      });
      expect(res.status).to.equal(500);
      expect(skus(await d.read(r.recommendation_id))).to.deep.equal(['E-1']);
    });

    it('should keep no recommendation and no patient either', async () => {
      const before = await d.t.app.knex('dispensary_recommendation').count({ n: '*' }).first();
      const patientId = await d.patient();
      expect(
        (await d.createRecommendation(patientId, { recommendation: { note: REFUSE, items: ['E-1'] } })).status,
      ).to.equal(500);
      expect(await d.t.app.knex('dispensary_recommendation').count({ n: '*' }).first()).to.deep.equal(before);
      const refused = await d
        .call('post', 'default', '/dispensary/patient')
        .send({ patient: { firstname: 'No', lastname: REFUSE, email: 'refused@example.com' } });
      expect(refused.status).to.equal(500);
      expect(await d.t.app.knex('dispensary_patient').where({ email: 'refused@example.com' }).first()).to.equal(
        undefined,
      );
    });
  });
});
