/**
 * HttpApp.ts: what the Express app mounts and how it answers outside the mounts, through supertest
 * on the real application of the fixture shop. What each mount does in depth is the part of
 * healthEndpoint, FrontController, requestLog (/metrics) and SwaggerPage's tests.
 */
import { expect } from 'chai';
import { Gauge } from 'prom-client';
import { startShopApp, type ShopApp } from '../../support/shopApp.js';

const NO_ROUTE = { message: 'Request does not match any route.' };

describe('HttpApp', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  it('should be built once per application', () => {
    expect(shop.t.app.http()).to.equal(shop.t.http);
  });

  it('should answer /health without a token', async () => {
    const res = await shop.t.request().get('/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok', database: 'up' });
  });

  it('should mount the front controller on /rest, with the routes of the enabled modules and their schema', async () => {
    const item = await shop.t.request().get('/rest/default/V1/fixture/items/A-1').set('Authorization', 'Bearer good');
    expect(item.status).to.equal(200);
    expect(item.body).to.deep.equal({ sku: 'A-1', item_name: 'Item A-1', qty_on_hand: 5, unit_price: 9.5 });
    const schema = await shop.t.request().get('/rest/default/schema');
    expect(schema.status).to.equal(200);
    expect(schema.body.swagger).to.equal('2.0');
    expect(Object.keys(schema.body.paths)).to.include('/V1/fixture/items/{sku}');
  });

  it('should answer /metrics to a loopback client and /swagger with the page', async () => {
    const metrics = await shop.t.request().get('/metrics');
    expect(metrics.status).to.equal(200);
    expect(metrics.text).to.include('http_requests_total');
    const page = await shop.t.request().get('/swagger');
    expect(page.status).to.equal(200);
    expect(page.type).to.equal('text/html');
  });

  it("should answer Magento's JSON 404 for any other path and method", async () => {
    for (const res of [
      await shop.t.request().get('/nowhere'),
      await shop.t.request().post('/index.php').send({ a: 1 }),
      await shop.t.request().delete('/'),
    ]) {
      expect(res.status).to.equal(404);
      expect(res.type).to.equal('application/json');
      expect(res.body).to.deep.equal(NO_ROUTE);
    }
  });

  it('should not name the framework nor send ETags', async () => {
    for (const path of ['/health', '/nowhere', '/rest/default/V1/fixture/public']) {
      const res = await shop.t.request().get(path);
      expect(res.headers, path).to.not.have.property('x-powered-by');
      expect(res.headers, path).to.not.have.property('etag');
    }
  });

  it("should answer an error that reaches Express with Magento's JSON 500 and a report id, never its HTML page", async () => {
    // A module's metric that fails while /metrics is collected: an error handed to Express (issue 25).
    new Gauge({
      name: 'fixture_broken_metric',
      help: 'A metric whose collection fails',
      registers: [shop.t.app.metricsRegistry],
      collect() {
        throw new Error('detail that must not leave the service');
      },
    });
    try {
      const res = await shop.t.request().get('/metrics');
      expect(res.status).to.equal(500);
      expect(res.type).to.equal('application/json');
      expect(res.body.message).to.match(
        /^Internal Error\. Details are available in Magento log file\. Report ID: webapi-[0-9a-f]{12}$/,
      );
      expect(res.text).to.not.include('detail that must not leave');
      expect(res.text).to.not.include('<');
    } finally {
      shop.t.app.metricsRegistry.removeSingleMetric('fixture_broken_metric');
    }
    expect((await shop.t.request().get('/metrics')).status).to.equal(200);
  });
});
