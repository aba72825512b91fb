/**
 * RouteHandler.ts on the real application of the fixture shop (Fixture_Shop's routes, its
 * OrderPlugin after createOrder(), a real SQLite database). Hiding extension attributes from
 * callers without their resources is tested over HTTP in ExtensionAttributes.http.test.ts.
 */
import { expect } from 'chai';
import type { RouteDefinition } from '../../../app/framework/config/WebapiConfig.js';
import {
  buildRouteHandlers,
  type RouteHandler,
  type RouteHandlerSources,
} from '../../../app/framework/webapi/RouteHandler.js';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

describe('RouteHandler', () => {
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
  const withTransactional = (changed: RouteDefinition, transactional: boolean): RouteHandlerSources => {
    const { app } = shop.t;
    const routes = new Map(app.routes);
    routes.set(changed, { ...app.routes.get(changed)!, transactional });
    return { routes, objectManager: app.objectManager, extensionAttributes: app.extensionAttributes };
  };

  /** The handler of `route` built from `sources` (the application's own by default). */
  const handlerOf = (sources: RouteHandlerSources, route: RouteDefinition): RouteHandler =>
    buildRouteHandlers(sources).get(route)!;

  describe('buildRouteHandlers()', () => {
    it('should run writes in the unit of work and reads outside it when the contract does not say', () => {
      const { app } = shop.t;
      expect(handlerOf(app, route('GET', '/V1/fixture/items/:sku')).transactional).to.equal(false);
      expect(handlerOf(app, route('POST', '/V1/fixture/orders')).transactional).to.equal(true);
      expect(handlerOf(app, route('PUT', '/V1/fixture/echo/:itemId')).transactional).to.equal(true);
    });

    it("should follow the contract method's transactional setting over the HTTP method", () => {
      const post = route('POST', '/V1/fixture/orders');
      const get = route('GET', '/V1/fixture/items/:sku');
      expect(handlerOf(withTransactional(post, false), post).transactional).to.equal(false);
      expect(handlerOf(withTransactional(get, true), get).transactional).to.equal(true);
    });

    it('should call the contract method on the intercepted service, so its plugins run', async () => {
      const handler = handlerOf(shop.t.app, route('POST', '/V1/fixture/orders'));
      const order = (await handler.invoke([{ sku: 'RT-1', qty: 2, note: '' }])) as { orderId: string; note: string };
      // '(checked)' is OrderPlugin.afterCreateOrder's mark: the call went through the interceptor.
      expect(order).to.include({ sku: 'RT-1', qty: 2, note: '(checked)' });
      const row = await shop.t.app.knex('fixture_shop_order').where({ order_id: order.orderId }).first();
      expect(row).to.include({ sku: 'RT-1', qty: 2 });
      let failure: unknown;
      await handler.invoke([{ sku: 'RT-2', qty: 1, note: 'fail-after' }]).catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(Error).with.property('message', 'after plugin failed');
    });

    it("should map input with the contract method's parameters and the route's forced <data> values", () => {
      const handler = handlerOf(shop.t.app, route('POST', '/V1/fixture/forced'));
      const args = handler.accept({
        pathParams: {},
        body: { customer_id: 'spoofed', payload: { text: 'hi', storeId: 'spoofed' } },
        query: undefined,
        placeholders: { customer_id: null, store_id: 7 },
      });
      expect(args).to.deep.equal([null, { text: 'hi', storeId: '7' }, 'default note']);
    });
  });

  describe('Application.routeHandler()', () => {
    it('should build one handler per route at start-up and hand it out again', () => {
      const { app } = shop.t;
      const orders = route('POST', '/V1/fixture/orders');
      expect(app.routeHandler(orders)).to.equal(app.routeHandler(orders));
      expect(app.routeHandler(orders)).to.not.equal(app.routeHandler(route('GET', '/V1/fixture/items/:sku')));
    });

    it('should refuse a route the application did not validate', () => {
      const unknown: RouteDefinition = { ...route('GET', '/V1/fixture/items/:sku'), url: '/V1/fixture/nothing' };
      expect(() => shop.t.app.routeHandler(unknown)).to.throw('Unknown route GET /V1/fixture/nothing');
    });
  });
});
