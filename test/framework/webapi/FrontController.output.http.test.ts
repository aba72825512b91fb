import { expect } from 'chai';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

const FULL_CATALOG = {
  items: [
    { sku: 'A-1', qty: 1, unit_price: 2, extension_attributes: { stock_item: { is_in_stock: true, qty: 10 } } },
    { sku: 'B-2', qty: 3, unit_price: 4, extension_attributes: { stock_item: { is_in_stock: false, qty: 0 } } },
  ],
  total_count: 2,
  search_criteria: { page_size: 20, current_page: 1 },
};

describe('Web API: output', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  const get = (url: string) => shop.t.request().get(url).set('Authorization', 'Bearer good');

  describe('when a service answers camelCase keys', () => {
    it('should serialise them in snake_case at every depth, with status 200 and JSON', async () => {
      const res = await get('/rest/V1/fixture/catalog');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body).to.deep.equal(FULL_CATALOG);
    });
  });

  describe('when ?fields= asks for a partial response', () => {
    const cases: [string, unknown][] = [
      ['total_count', { total_count: 2 }],
      [
        'items[sku,qty],total_count',
        {
          items: [
            { sku: 'A-1', qty: 1 },
            { sku: 'B-2', qty: 3 },
          ],
          total_count: 2,
        },
      ],
      [
        'items[sku,extension_attributes[stock_item[is_in_stock]]]',
        {
          items: [
            { sku: 'A-1', extension_attributes: { stock_item: { is_in_stock: true } } },
            { sku: 'B-2', extension_attributes: { stock_item: { is_in_stock: false } } },
          ],
        },
      ],
      [
        'search_criteria[page_size],items[unit_price]',
        { search_criteria: { page_size: 20 }, items: [{ unit_price: 2 }, { unit_price: 4 }] },
      ],
      ['search_criteria', { search_criteria: { page_size: 20, current_page: 1 } }],
      ['total_count,no_such_field,items[nothing]', { total_count: 2, items: [{}, {}] }],
      [' total_count , items[ sku ] ', { total_count: 2, items: [{ sku: 'A-1' }, { sku: 'B-2' }] }],
    ];
    for (const [fields, expected] of cases) {
      it(`should keep only ${fields.trim()}`, async () => {
        const res = await get(`/rest/V1/fixture/catalog?fields=${encodeURIComponent(fields)}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal(expected);
      });
    }

    it('should answer everything for an empty or malformed fields value', async () => {
      for (const fields of ['', 'items[sku', 'items]sku[']) {
        const res = await get(`/rest/V1/fixture/catalog?fields=${encodeURIComponent(fields)}`);
        expect(res.status, fields).to.equal(200);
        expect(res.body, fields).to.deep.equal(FULL_CATALOG);
      }
    });

    it('should apply to the result of a write too', async () => {
      const res = await shop.t
        .request()
        .post('/rest/V1/fixture/orders?fields=sku,qty')
        .set('Authorization', 'Bearer good')
        .send({ order: { sku: 'F-1', qty: 2 } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ sku: 'F-1', qty: 2 });
    });
  });
});
