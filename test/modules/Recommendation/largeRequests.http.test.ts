import { expect } from 'chai';
import { nowTimestamp } from '../../../app/framework/db/dialect.js';
import { Dispensary, ok } from './support.js';

/** The largest requests the contract allows: 1000 distinct items at once (more than one insert statement's worth). */
describe('Recommendation: 1000 distinct items in one request', function () {
  this.timeout(60_000);
  let d: Dispensary;
  const skus = Array.from({ length: 1000 }, (_, i) => `BULK-${String(i).padStart(4, '0')}`);

  before(async () => {
    d = await Dispensary.start();
    // Seeded straight into the catalog table: 1000 catalog requests would only slow the test.
    const now = nowTimestamp();
    const rows = skus.map((sku) => ({
      sku,
      sku_key: sku.toLowerCase(),
      name: sku,
      price: 1,
      status: 1,
      is_in_stock: true,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 100) await d.t.app.knex('catalog_product').insert(rows.slice(i, i + 100));
  });
  after(async () => d?.stop());

  it('should add all 1000 in order with one Add Items request', async () => {
    const recommendation = await d.recommendation();
    const res = ok(
      await d.add(recommendation.recommendation_id, {
        recommendation: { items: skus.map((sku) => ({ sku, qty: 1 })) },
      }),
    );
    expect(res.items.map((item) => item.sku)).to.deep.equal(skus);
    expect((await d.read(recommendation.recommendation_id)).items).to.have.length(1000);
  });

  it('should create a recommendation with 1000 items in the simple format', async () => {
    const res = ok(
      await d.createRecommendation(await d.patient('default', { email: 'bulk@example.com' }), {
        recommendation: { items: skus },
      }),
    );
    expect(res.items).to.have.length(1000);
    expect(res.items[999]!.sku).to.equal(skus[999]);
  });
});
