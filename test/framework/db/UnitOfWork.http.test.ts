import { expect } from 'chai';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

describe('Web API: one unit of work per request', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  const createOrder = (order: Record<string, unknown>) =>
    shop.t.request().post('/rest/V1/fixture/orders').set('Authorization', 'Bearer good').send({ order });
  const rows = async (sku: string) =>
    (await shop.t.app.knex('fixture_shop_order').where({ sku })) as { note: string }[];

  it('should keep what a successful request wrote, after its plugin ran', async () => {
    const res = await createOrder({ sku: 'KEEP-1', qty: 2, note: 'hello' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ sku: 'KEEP-1', qty: 2, note: 'hello (checked)' });
    expect(res.body.order_id).to.be.a('string');
    expect(await rows('KEEP-1')).to.have.length(1);
    const read = await shop.t
      .request()
      .get(`/rest/V1/fixture/orders/${res.body.order_id}`)
      .set('Authorization', 'Bearer good');
    expect(read.status).to.equal(200);
    expect(read.body.sku).to.equal('KEEP-1');
  });

  it('should roll back the row the service inserted when the after plugin throws', async () => {
    const res = await createOrder({ sku: 'ROLLBACK-1', qty: 1, note: 'fail-after' });
    expect(res.status).to.equal(500);
    expect(res.body.message).to.match(/^Internal Error\. .* Report ID: webapi-/);
    expect(await rows('ROLLBACK-1')).to.deep.equal([]);
  });

  it('should roll back when the after plugin throws a Magento exception, answering its status', async () => {
    const res = await createOrder({ sku: 'ROLLBACK-2', qty: 1, note: 'reject-after' });
    expect(res.status).to.equal(400);
    expect(res.body.parameters).to.deep.equal({ fieldName: 'order.note', value: 'reject-after' });
    expect(await rows('ROLLBACK-2')).to.deep.equal([]);
  });

  it('should roll back when the service itself throws after writing', async () => {
    const res = await createOrder({ sku: 'ROLLBACK-3', qty: 1, note: 'fail-in-service' });
    expect(res.status).to.equal(500);
    expect(await rows('ROLLBACK-3')).to.deep.equal([]);
  });

  it("should give every write its own transaction and keep the others' work", async () => {
    const results = await Promise.all([
      createOrder({ sku: 'MIX', qty: 1, note: 'a' }),
      createOrder({ sku: 'MIX', qty: 1, note: 'fail-after' }),
      createOrder({ sku: 'MIX', qty: 1, note: 'b' }),
    ]);
    expect(results.map((r) => r.status)).to.deep.equal([200, 500, 200]);
    expect((await rows('MIX')).map((r) => r.note).sort()).to.deep.equal(['a', 'b']);
  });

  it('should run writes in a transaction and reads outside one', async () => {
    const read = await shop.t.request().get('/rest/V1/fixture/whoami').set('Authorization', 'Bearer good');
    expect(read.body.in_transaction).to.equal(false);
  });
});
