import { expect } from 'chai';
import { Dispensary } from './support.js';

/**
 * An operator may apply a migration while the service runs. On PostgreSQL the hot statements are
 * kept prepared per connection (PreparedQuery), and a kept `select *` fails once its table gains
 * a column ("cached plan must not change result type"): they name their columns instead.
 */
describe('Recommendation: a migration that adds columns while the service runs', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
  });
  after(async () => d?.stop());

  it('should keep authenticating, reading and writing with the statements it had prepared', async () => {
    await d.products('SCHEMA-1', 'SCHEMA-2');
    const rec = await d.recommendation({ recommendation: { items: ['SCHEMA-1'] } });
    // Every hot statement prepared on the pool's connections before the change.
    for (let i = 0; i < 3; i++) expect((await d.get(rec.recommendation_id)).status).to.equal(200);
    const knex = d.t.app.knex;
    const added = [
      'integration_token',
      'dispensary_recommendation',
      'dispensary_recommendation_item',
      'catalog_product',
    ];
    for (const table of added) await knex.schema.alterTable(table, (t) => t.string('added_later', 10).nullable());
    try {
      const read = await d.get(rec.recommendation_id);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body).to.not.have.property('added_later');
      const add = await d.add(rec.recommendation_id, { recommendation: { items: [{ sku: 'SCHEMA-2', qty: 2 }] } });
      expect(add.status, JSON.stringify(add.body)).to.equal(200);
      const update = await d.update(rec.recommendation_id, {
        recommendation: { items: [{ sku: 'SCHEMA-1', qty: 5 }] },
      });
      expect(update.status, JSON.stringify(update.body)).to.equal(200);
      expect(update.body.items.map((i: { sku: string; qty: number }) => [i.sku, i.qty])).to.deep.equal([
        ['SCHEMA-1', 5],
        ['SCHEMA-2', 2],
      ]);
    } finally {
      for (const table of added) await knex.schema.alterTable(table, (t) => t.dropColumn('added_later'));
    }
  });
});
