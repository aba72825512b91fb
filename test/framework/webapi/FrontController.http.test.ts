import { expect } from 'chai';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

const GOOD = 'Bearer good';

describe('Web API: store scope and authorization', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
    await shop.t.createStore('practice_a', 'Practice A');
  });
  after(async () => shop?.stop());

  const whoami = (prefix: string, auth = GOOD) =>
    shop.t.request().get(`${prefix}/V1/fixture/whoami`).set('Authorization', auth);

  describe('when the path names a scope', () => {
    it('should use the default store for /rest/V1', async () => {
      const res = await whoami('/rest');
      expect(res.status).to.equal(200);
      expect(res.body.store).to.include({ id: 1, code: 'default' });
      expect(res.body.is_all_stores).to.equal(false);
      expect(res.body.caller.name).to.equal('default|default-scope|Fixture_Shop::read+Fixture_Shop::write');
    });

    it('should use the store named by /rest/<code>/V1', async () => {
      const res = await whoami('/rest/practice_a');
      expect(res.status).to.equal(200);
      expect(res.body.store).to.include({ code: 'practice_a', name: 'Practice A' });
      expect(res.body.store.id).to.be.greaterThan(1);
      expect(res.body.caller.name).to.equal('practice_a|explicit-scope|Fixture_Shop::read+Fixture_Shop::write');
    });

    it('should tell /rest/default/V1 from /rest/V1 only in what the hook is told', async () => {
      const res = await whoami('/rest/default');
      expect(res.status).to.equal(200);
      expect(res.body.store).to.include({ id: 1, code: 'default' });
      expect(res.body.caller.name).to.match(/\|explicit-scope\|/);
    });

    it('should use the admin scope, store id 0, for /rest/all/V1', async () => {
      const res = await whoami('/rest/all');
      expect(res.status).to.equal(200);
      expect(res.body.store).to.include({ id: 0 });
      expect(res.body.is_all_stores).to.equal(true);
    });

    it('should answer 400 naming an unknown store code', async () => {
      const res = await whoami('/rest/practice_z');
      expect(res.status).to.equal(400);
      expect(res.body.message).to.contain('%storeCode');
      expect(res.body.parameters).to.deep.equal({ storeCode: 'practice_z' });
    });

    for (const code of ['Practice_A', '9lives', 'a-b', 'x'.repeat(33), 'caf%C3%A9']) {
      it(`should answer 400 naming the code for a code of the wrong shape (${code.slice(0, 12)})`, async () => {
        const res = await whoami(`/rest/${code}`);
        expect(res.status).to.equal(400);
        expect(res.body.message).to.contain('%storeCode');
        expect(res.body.parameters.storeCode).to.be.a('string').and.not.equal('');
      });
    }

    it('should check the scope before the route', async () => {
      const res = await shop.t.request().get('/rest/practice_z/V1/nothing/here');
      expect(res.status).to.equal(400);
      expect(res.body.parameters).to.deep.equal({ storeCode: 'practice_z' });
    });
  });

  describe('when the route is anonymous', () => {
    it('should answer without a token, as a guest', async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/public');
      expect(res.status).to.equal(200);
      expect(res.body.caller).to.deep.equal({ type: 'guest', id: null, name: 'guest', all_stores: false });
      expect(res.body.store.code).to.equal('default');
    });

    it('should not consult the authorization hook even with a bad token', async () => {
      const res = await shop.t
        .request()
        .get('/rest/practice_a/V1/fixture/public')
        .set('Authorization', 'Bearer nonsense');
      expect(res.status).to.equal(200);
      expect(res.body.caller.type).to.equal('guest');
      expect(res.body.store.code).to.equal('practice_a');
    });
  });

  describe('when an authorization class is configured', () => {
    it('should make its Caller visible to the service through the request context', async () => {
      const res = await whoami('/rest/all');
      expect(res.body.caller).to.deep.equal({
        type: 'integration',
        id: 42,
        name: 'admin|explicit-scope|Fixture_Shop::read+Fixture_Shop::write',
        all_stores: true,
      });
    });

    it('should answer its 401 with every resource of the route', async () => {
      const res = await whoami('/rest', 'Bearer reader');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({
        message: "The consumer isn't authorized to access %resources.",
        parameters: { resources: 'Fixture_Shop::read, Fixture_Shop::write' },
      });
    });

    it("should let a caller holding the route's resources through", async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/items/abc').set('Authorization', 'Bearer reader');
      expect(res.status).to.equal(200);
    });

    it('should authorize before reading the body, so a guest learns nothing from a 400', async () => {
      const res = await shop.t
        .request()
        .post('/rest/V1/fixture/echo/1')
        .set('Content-Type', 'application/json')
        .send('{not json');
      expect(res.status).to.equal(401);
    });
  });
});

describe('Web API: without an authorization class', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp({ auth: false });
  });
  after(async () => shop?.stop());

  it('should answer 401 on every route that is not anonymous, whatever the token', async () => {
    for (const [method, url] of [
      ['get', '/rest/V1/fixture/whoami'],
      ['get', '/rest/all/V1/fixture/items/abc'],
      ['post', '/rest/V1/fixture/orders'],
    ] as const) {
      const res = await shop.t.request()[method](url).set('Authorization', GOOD);
      expect(res.status, url).to.equal(401);
      expect(res.body.message).to.equal("The consumer isn't authorized to access %resources.");
    }
  });

  it('should still serve anonymous routes', async () => {
    const res = await shop.t.request().get('/rest/V1/fixture/public');
    expect(res.status).to.equal(200);
    expect(res.body.caller.type).to.equal('guest');
  });
});
