/**
 * routeTarget.ts on the real application of the fixture shop (Fixture_Shop's routes, its
 * OrderPlugin after createOrder(), a real SQLite database). Hiding extension attributes from
 * callers without their resources is tested over HTTP in ExtensionAttributes.http.test.ts.
 */
import { expect } from 'chai';
import type { RouteDefinition } from '../../../app/framework/config/WebapiConfig.js';
import { createRouteTarget, type RouteTargetSources } from '../../../app/bootstrap/routeTarget.js';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

describe('routeTarget', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  const route = (method: string, url: string): RouteDefinition => {
    const found = [...shop.t.app.routes.keys()].find((r) => r.method === method && r.url === url);
    if (!found) throw new Error(`no route ${method} ${url}`);
    return found;
  };
  /** The application's own sources with the contract method of `changed` given another spec. */
  const withTransactional = (changed: RouteDefinition, transactional: boolean): RouteTargetSources => {
    const { app } = shop.t;
    const routes = new Map(app.routes);
    routes.set(changed, { ...app.routes.get(changed)!, transactional });
    return { routes, objectManager: app.objectManager, extensionAttributes: app.extensionAttributes };
  };

  describe('createRouteTarget()', () => {
    it('should run writes in the unit of work and reads outside it when the contract does not say', () => {
      const { app } = shop.t;
      expect(createRouteTarget(app, route('GET', '/V1/fixture/items/:sku')).transactional).to.equal(false);
      expect(createRouteTarget(app, route('POST', '/V1/fixture/orders')).transactional).to.equal(true);
      expect(createRouteTarget(app, route('PUT', '/V1/fixture/echo/:itemId')).transactional).to.equal(true);
    });

    it("should follow the contract method's transactional setting over the HTTP method", () => {
      const post = route('POST', '/V1/fixture/orders');
      const get = route('GET', '/V1/fixture/items/:sku');
      expect(createRouteTarget(withTransactional(post, false), post).transactional).to.equal(false);
      expect(createRouteTarget(withTransactional(get, true), get).transactional).to.equal(true);
    });

    it('should call the contract method on the intercepted service, so its plugins run', async () => {
      const target = createRouteTarget(shop.t.app, route('POST', '/V1/fixture/orders'));
      const order = (await target.invoke([{ sku: 'RT-1', qty: 2, note: '' }])) as { orderId: string; note: string };
      // '(checked)' is OrderPlugin.afterCreateOrder's mark: the call went through the interceptor.
      expect(order).to.include({ sku: 'RT-1', qty: 2, note: '(checked)' });
      const row = await shop.t.app.knex('fixture_shop_order').where({ order_id: order.orderId }).first();
      expect(row).to.include({ sku: 'RT-1', qty: 2 });
      let failure: unknown;
      await target.invoke([{ sku: 'RT-2', qty: 1, note: 'fail-after' }]).catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(Error).with.property('message', 'after plugin failed');
    });

    it("should map input with the contract method's parameters and the route's forced <data> values", () => {
      const target = createRouteTarget(shop.t.app, route('POST', '/V1/fixture/forced'));
      const args = target.mapper.map({
        pathParams: {},
        body: { customer_id: 'spoofed', payload: { text: 'hi', storeId: 'spoofed' } },
        query: undefined,
        placeholders: { customer_id: null, store_id: 7 },
      });
      expect(args).to.deep.equal([null, { text: 'hi', storeId: '7' }, 'default note']);
    });

    it('should refuse a route the application did not validate', () => {
      const unknown: RouteDefinition = { ...route('GET', '/V1/fixture/items/:sku'), url: '/V1/fixture/nothing' };
      expect(() => createRouteTarget(shop.t.app, unknown)).to.throw('Unknown route GET /V1/fixture/nothing');
    });
  });

  describe('Application.routeTarget()', () => {
    it('should build one target per route and hand it out again', () => {
      const { app } = shop.t;
      const orders = route('POST', '/V1/fixture/orders');
      expect(app.routeTarget(orders)).to.equal(app.routeTarget(orders));
      expect(app.routeTarget(orders)).to.not.equal(app.routeTarget(route('GET', '/V1/fixture/items/:sku')));
    });
  });
});
