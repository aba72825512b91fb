/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Webapi/Routing/RequestIdOverrideTest.php.
 * Magento's cases PUT to its test module TestModule5 (/V1/TestModule5/:entityId); ported onto the
 * served PUT routes whose last path parameter names the entity: PUT /V1/products/:sku (the body's
 * `product.sku`) and PUT /V1/products/:productSku/stockItems/:itemId (the body's `stockItem.item_id`).
 *
 * Ported: testOverride, testOverrideNested, testOverrideAdd.
 * Skipped: testAddCaseMismatch (a camelCase `entityId` key: no served body has an identifier whose
 * camelCase and snake_case spellings differ), testOverrideWithScalarValues (no served PUT takes
 * scalar top-level values).
 * This service always lets the path win. Magento substitutes only when the body has one top-level
 * object (with `{"product": ..., "saveOptions": true}` Magento keeps the body's sku).
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

describe('Magento api-functional: Webapi\\Routing\\RequestIdOverrideTest', () => {
  const app = magentoApp();
  let itemId: number;
  before(async () => {
    for (const sku of ['item-1', 'item-2']) {
      const res = await app.call('post', '/V1/products', { product: { sku, name: sku, price: 1 } });
      expect(res.status).to.equal(200);
      if (sku === 'item-1') itemId = res.body.extension_attributes.stock_item.item_id;
    }
  });

  it('testOverride: the body names another sku, the path wins', async () => {
    const res = await app.call('put', '/V1/products/item-1', { product: { sku: 'item-2', name: 'test' } });
    expect(res.status).to.equal(200);
    expect(res.body.sku).to.equal('item-1');
    expect((await app.call('get', '/V1/products/item-2')).body.name).to.equal('item-2');
  });

  it('testOverrideNested: the last path parameter (itemId) wins over the body', async () => {
    const stockItem = { item_id: itemId + 1000, qty: 3 };
    const res = await app.call('put', `/V1/products/item-1/stockItems/${itemId}`, { stockItem });
    expect(res.status).to.equal(200);
    expect(res.body).to.equal(itemId);
  });

  it('testOverrideAdd: the body has no sku, the path gives it', async () => {
    const res = await app.call('put', '/V1/products/item-1', { product: { name: 'test' } });
    expect(res.status).to.equal(200);
    expect(res.body.sku).to.equal('item-1');
  });
});
