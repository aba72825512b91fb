/**
 * How many operations one bulk request may hold. Issue 20: an import posts thousands at once, and
 * 10,000 in one request must be accepted (`npm run bench:async -- --one-bulk` times it); the bound
 * is BULK_MAX_OPERATIONS (default 10,000) and the body's BULK_BODY_LIMIT (default 16 MiB), apart
 * from the synchronous routes' BODY_LIMIT (1 MiB), which 10,000 Add Items elements exceed.
 */
import { expect } from 'chai';
import { Dispensary, UUID } from '../Recommendation/support.js';

const ADD = '/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item';
const TOO_MANY = 'A bulk request can contain at most %limit operations; this one has %count.';

describe('Async bulk web API: how many operations one request holds', function () {
  this.timeout(120_000);
  const element = (recommendationId: string, i: number) => ({
    recommendationId,
    recommendation: { items: [{ sku: `BULK-${i % 3}`, qty: 1 + (i % 5) }] },
  });
  const countOperations = async (d: Dispensary, uuid: string) =>
    Number(
      (
        (await d.t.app.knex('magento_operation').where({ bulk_uuid: uuid }).count({ n: '*' })) as {
          n: number | string;
        }[]
      )[0]!.n,
    );

  describe('by default', () => {
    let d: Dispensary;
    let recommendationId: string;
    before(async () => {
      d = await Dispensary.start();
      await d.products('BULK-0', 'BULK-1', 'BULK-2');
      recommendationId = (await d.recommendation({ recommendation: { items: ['BULK-0'] } })).recommendation_id;
    });
    after(async () => d?.stop());

    it('should accept 10,000 operations in one request, over the synchronous body limit, and record each', async () => {
      const body = Array.from({ length: 10_000 }, (_, i) => element(recommendationId, i));
      expect(Buffer.byteLength(JSON.stringify(body))).to.be.greaterThan(1024 * 1024);
      const res = await d.request().post(ADD).set('Authorization', `Bearer ${d.token}`).send(body);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(202);
      expect(res.body.bulk_uuid).to.match(UUID);
      expect(res.body.request_items).to.have.length(10_000);
      expect(res.body.errors).to.equal(false);
      expect(await countOperations(d, res.body.bulk_uuid)).to.equal(10_000);
    });

    it('should refuse 10,001 with 400 and record nothing', async () => {
      const before = Number(((await d.t.app.knex('magento_bulk').count({ n: '*' })) as { n: number | string }[])[0]!.n);
      const body = Array.from({ length: 10_001 }, (_, i) => element(recommendationId, i));
      const res = await d.request().post(ADD).set('Authorization', `Bearer ${d.token}`).send(body);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: TOO_MANY, parameters: { limit: 10_000, count: 10_001 } });
      const after = Number(((await d.t.app.knex('magento_bulk').count({ n: '*' })) as { n: number | string }[])[0]!.n);
      expect(after).to.equal(before);
    });

    it('should keep the synchronous routes at BODY_LIMIT (413 for a 2 MiB body)', async () => {
      const res = await d
        .request()
        .post(`/rest/default/V1/dispensary/recommendation/${recommendationId}/item`)
        .set('Authorization', `Bearer ${d.token}`)
        .set('Content-Type', 'application/json')
        .send(`{"recommendation":{"note":"${'x'.repeat(2 * 1024 * 1024)}"}}`);
      expect(res.status).to.equal(413);
    });
  });

  describe('with BULK_MAX_OPERATIONS=2 and BULK_BODY_LIMIT=4096', () => {
    let d: Dispensary;
    let recommendationId: string;
    before(async () => {
      d = await Dispensary.start({ bulkMaxOperations: 2, bulkBodyLimit: 4096 });
      await d.products('BULK-0', 'BULK-1', 'BULK-2');
      recommendationId = (await d.recommendation({ recommendation: { items: ['BULK-0'] } })).recommendation_id;
    });
    after(async () => d?.stop());

    it('should accept two and refuse three, naming the limit', async () => {
      const post = (n: number) =>
        d
          .request()
          .post(ADD)
          .set('Authorization', `Bearer ${d.token}`)
          .send(Array.from({ length: n }, (_, i) => element(recommendationId, i)));
      expect((await post(2)).status).to.equal(202);
      const refused = await post(3);
      expect(refused.status).to.equal(400);
      expect(refused.body).to.deep.equal({ message: TOO_MANY, parameters: { limit: 2, count: 3 } });
    });

    it('should answer 413 for a bulk body over BULK_BODY_LIMIT', async () => {
      const big = [
        { recommendationId, recommendation: { note: 'x'.repeat(5000), items: [{ sku: 'BULK-0', qty: 1 }] } },
      ];
      const res = await d.request().post(ADD).set('Authorization', `Bearer ${d.token}`).send(big);
      expect(res.status).to.equal(413);
      expect(res.body.parameters).to.deep.equal({ limit: 4096 });
    });
  });
});
