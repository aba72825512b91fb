import { expect } from 'chai';
import type { InjectResponse as Response } from '../../support/inject.js';
import { Dispensary, type Recommendation } from './support.js';

const INVALID = 'Invalid value of "%value" provided for the %fieldName field.';
const f = (group: number, index: number, field: string, value: string, condition = 'eq') =>
  `searchCriteria[filter_groups][${group}][filters][${index}][field]=${field}` +
  `&searchCriteria[filter_groups][${group}][filters][${index}][value]=${encodeURIComponent(value)}` +
  `&searchCriteria[filter_groups][${group}][filters][${index}][condition_type]=${condition}`;

function page(res: Response): { items: Record<string, unknown>[]; total_count: number; search_criteria: unknown } {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('Recommendation: patient and recommendation search', () => {
  let d: Dispensary;
  let northToken: string;
  let southToken: string;
  const north: { patients: number[]; recommendations: Recommendation[] } = { patients: [], recommendations: [] };
  const south: { patients: number[]; recommendations: Recommendation[] } = { patients: [], recommendations: [] };

  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('north');
    await d.t.createStore('south');
    northToken = await d.t.integrationToken({ store: 'north' });
    southToken = await d.t.integrationToken({ store: 'south' });
    await d.products('VITD', 'OMEGA', 'ZINC');
    for (const [scope, into] of [
      ['north', north],
      ['south', south],
    ] as const) {
      for (const name of ['Ada', 'Grace', 'Émilie']) {
        into.patients.push(
          await d.patient(scope, {
            firstname: name,
            lastname: `${scope} family`,
            email: `${name.toLowerCase()}.${scope}@example.com`,
          }),
        );
      }
      for (const [i, patientId] of into.patients.entries()) {
        const res = await d.createRecommendation(
          patientId,
          { recommendation: { note: `plan ${i}`, items: i === 0 ? ['VITD', 'OMEGA'] : ['ZINC'] } },
          scope,
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        into.recommendations.push(res.body as Recommendation);
        // Distinct, fixed change times (no sleeping): recommendation i changed on day i+1.
        await d.t.app
          .knex('dispensary_recommendation')
          .where({ recommendation_id: res.body.recommendation_id })
          .update({ updated_at: `2026-11-0${i + 1} 10:00:00` });
      }
    }
  });
  after(async () => d?.stop());

  const patients = (query: string, scope = 'north', token: string | null = northToken) =>
    d.call('get', scope, `/dispensary/patient/search?${query}`, token);
  const recommendations = (query: string, scope = 'north', token: string | null = northToken) =>
    d.call('get', scope, `/dispensary/recommendation/search?${query}`, token);

  describe('when patients are searched', () => {
    it("should answer the store's patients only, with the total count", async () => {
      const res = page(
        await patients('searchCriteria[sortOrders][0][field]=patient_id&searchCriteria[sortOrders][0][direction]=ASC'),
      );
      expect(res.items.map((p) => p.patient_id)).to.deep.equal(north.patients);
      expect(res.total_count).to.equal(3);
      expect(res.items[0]).to.deep.equal({
        patient_id: north.patients[0],
        firstname: 'Ada',
        lastname: 'north family',
        email: 'ada.north@example.com',
        store_id: res.items[0]!.store_id,
      });
    });

    it('should filter by name case-insensitively, ORing a group', async () => {
      const res = page(await patients(`${f(0, 0, 'firstname', 'ada')}&${f(0, 1, 'email', 'ÉMILIE%', 'like')}`));
      expect(res.items.map((p) => p.firstname).sort()).to.deep.equal(['Ada', 'Émilie']);
    });

    it("should never show another store's patients, even when asked by id or store_id", async () => {
      expect(page(await patients(f(0, 0, 'patient_id', south.patients.join(','), 'in'))).total_count).to.equal(0);
      expect(
        page(await patients(f(0, 0, 'store_id', String(south.recommendations[0]!.store_id)))).total_count,
      ).to.equal(0);
      expect(page(await patients('searchCriteria=', 'all', d.token)).total_count).to.equal(6);
      const denied = await patients('searchCriteria=', 'south', northToken);
      expect(denied.status).to.equal(401);
    });

    it('should answer 400 naming an unknown field', async () => {
      const res = await patients(f(0, 0, 'email_key', 'x'));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: INVALID,
        parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][field]', value: 'email_key' },
      });
    });
  });

  describe('when recommendations are searched', () => {
    it("should answer the store's recommendations with their items, as GET answers each", async () => {
      const res = page(
        await recommendations(
          'searchCriteria[sortOrders][0][field]=updated_at&searchCriteria[sortOrders][0][direction]=ASC',
        ),
      );
      expect(res.total_count).to.equal(3);
      expect(res.items.map((r) => r.recommendation_id)).to.deep.equal(
        north.recommendations.map((r) => r.recommendation_id),
      );
      expect(res.items[0]).to.deep.equal(await d.read(north.recommendations[0]!.recommendation_id));
      expect((res.items[0]!.items as { sku: string }[]).map((i) => i.sku)).to.deep.equal(['VITD', 'OMEGA']);
    });

    it('should list what changed since a time (updated_at gt), for a sync', async () => {
      const res = page(
        await recommendations(
          `${f(0, 0, 'updated_at', '2026-11-01 10:00:00', 'gt')}&searchCriteria[sortOrders][0][field]=updated_at&searchCriteria[sortOrders][0][direction]=ASC`,
        ),
      );
      expect(res.items.map((r) => r.updated_at)).to.deep.equal(['2026-11-02 10:00:00', '2026-11-03 10:00:00']);
      expect(res.search_criteria).to.deep.equal({
        filter_groups: [{ filters: [{ field: 'updated_at', value: '2026-11-01 10:00:00', condition_type: 'gt' }] }],
        sort_orders: [{ field: 'updated_at', direction: 'ASC' }],
        page_size: 20,
        current_page: 1,
      });
    });

    it('should filter by patient_id, status and created_at', async () => {
      const byPatient = page(await recommendations(f(0, 0, 'patient_id', String(north.patients[1]))));
      expect(byPatient.items.map((r) => r.recommendation_id)).to.deep.equal([
        north.recommendations[1]!.recommendation_id,
      ]);
      expect(page(await recommendations(f(0, 0, 'status', 'PENDING'))).total_count).to.equal(3);
      expect(page(await recommendations(f(0, 0, 'status', 'pending', 'neq'))).total_count).to.equal(0);
      expect(page(await recommendations(f(0, 0, 'created_at', '2000-01-01', 'gteq'))).total_count).to.equal(3);
      expect(page(await recommendations(f(0, 0, 'note', 'plan 2'))).items[0]!.recommendation_id).to.equal(
        north.recommendations[2]!.recommendation_id,
      );
      expect(page(await recommendations(f(0, 0, 'notify_email', 'false'))).total_count).to.equal(3);
    });

    it('should page, the total counting every match', async () => {
      const first = page(await recommendations('searchCriteria[pageSize]=2&searchCriteria[currentPage]=1'));
      const second = page(await recommendations('searchCriteria[pageSize]=2&searchCriteria[currentPage]=2'));
      expect([first.items.length, second.items.length, first.total_count, second.total_count]).to.deep.equal([
        2, 1, 3, 3,
      ]);
      const ids = [...first.items, ...second.items].map((r) => r.recommendation_id).sort();
      expect(ids).to.deep.equal(north.recommendations.map((r) => r.recommendation_id).sort());
    });

    it('should never cross store scopes; `all` sees every store', async () => {
      const southIds = south.recommendations.map((r) => r.recommendation_id);
      expect(page(await recommendations(f(0, 0, 'recommendation_id', southIds.join(','), 'in'))).total_count).to.equal(
        0,
      );
      expect(
        page(await recommendations('searchCriteria=', 'south', southToken))
          .items.map((r) => r.recommendation_id)
          .sort(),
      ).to.deep.equal([...southIds].sort());
      expect(page(await recommendations('searchCriteria=', 'all', d.token)).total_count).to.equal(6);
      // An all-stores token under a store's scope still sees that store only.
      expect(page(await recommendations('searchCriteria=', 'south', d.token)).total_count).to.equal(3);
    });

    it('should answer Magento 400 bodies for bad criteria', async () => {
      for (const [query, body] of [
        [
          f(0, 0, 'items', 'x'),
          {
            message: INVALID,
            parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][field]', value: 'items' },
          },
        ],
        [
          f(0, 0, 'status', 'x', 'between'),
          {
            message: INVALID,
            parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][condition_type]', value: 'between' },
          },
        ],
        [
          f(0, 0, 'updated_at', 'last week', 'gt'),
          {
            message: INVALID,
            parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][value]', value: 'last week' },
          },
        ],
        ['searchCriteria[pageSize]=0', { message: 'Minimum SearchCriteria pageSize is %min', parameters: { min: 1 } }],
        [
          'searchCriteria[pageSize]=500',
          { message: 'Maximum SearchCriteria pageSize is %max', parameters: { max: 300 } },
        ],
        [
          'searchCriteria[currentPage]=abc',
          {
            message:
              'Error occurred during "currentPage" processing. Invalid type for value: "abc". Expected Type: "int".',
            parameters: { fieldName: 'searchCriteria[currentPage]' },
          },
        ],
      ] as const) {
        const res = await recommendations(query);
        expect(res.status, query).to.equal(400);
        expect(res.body, query).to.deep.equal(body);
      }
    });

    it('should still answer GET /V1/dispensary/recommendation/:id (search is a literal route)', async () => {
      expect(
        (await d.get(north.recommendations[0]!.recommendation_id, 'north').set('Authorization', `Bearer ${northToken}`))
          .status,
      ).to.equal(200);
      expect((await d.call('get', 'north', '/dispensary/patient/search', northToken)).status).to.equal(400);
    });
  });
});
