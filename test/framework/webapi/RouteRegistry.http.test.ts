import { expect } from 'chai';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

const NO_ROUTE = { message: 'Request does not match any route.' };

describe('Web API: route matching', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  const get = (url: string) => shop.t.request().get(url).set('Authorization', 'Bearer good');

  it('should let a literal segment beat a parameter, whatever the declaration order', async () => {
    const res = await get('/rest/V1/fixture/items/special');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ kind: 'special' });
  });

  it('should match a parameter segment and pass it URL-decoded', async () => {
    const res = await get('/rest/V1/fixture/items/SKU%201%2F2');
    expect(res.status).to.equal(200);
    expect(res.body.sku).to.equal('SKU 1/2');
  });

  it('should match by segment count', async () => {
    const res = await get('/rest/V1/fixture/items/abc/stock');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ sku: 'abc', stock_level: 7 });
    expect((await get('/rest/V1/fixture/items/abc/stock/more')).body).to.deep.equal(NO_ROUTE);
    expect((await get('/rest/V1/fixture')).status).to.equal(404);
  });

  it('should ignore empty segments and a trailing slash, as Magento does', async () => {
    const res = await get('/rest/V1/fixture//items/abc/');
    expect(res.status).to.equal(200);
    expect(res.body.sku).to.equal('abc');
  });

  it('should answer 404 "Request does not match any route." for a method the path has no route for', async () => {
    const res = await shop.t.request().delete('/rest/V1/fixture/items/abc').set('Authorization', 'Bearer good');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal(NO_ROUTE);
  });

  it('should answer the same 404 for an unknown path, inside and outside /rest', async () => {
    for (const url of [
      '/rest/V1/fixture/nothing',
      '/rest/V2/fixture/items/abc',
      '/rest/default/V1/nothing',
      '/rest/V1',
      '/rest',
      '/elsewhere',
    ]) {
      const res = await get(url);
      expect(res.status, url).to.equal(404);
      expect(res.body, url).to.deep.equal(NO_ROUTE);
      expect(res.headers['content-type'], url).to.match(/^application\/json/);
    }
  });

  it('should treat path segments as case-sensitive', async () => {
    expect((await get('/rest/V1/fixture/ITEMS/abc')).status).to.equal(404);
  });

  it('should answer 404 for a malformed %-escape instead of failing', async () => {
    const res = await get('/rest/V1/fixture/items/%E0%A4%A');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal(NO_ROUTE);
  });
});
