/**
 * The async web API refuses exactly what the synchronous route refuses. Walks every route of the
 * running application's route registry that has an async form (POST, PUT, DELETE, not anonymous)
 * in its three forms (`/V1/...`, `/async/V1/...`, `/async/bulk/V1/...`) with each kind of caller
 * (admin token, all-stores integration token, store-bound token, token without the route's
 * resource, no token) on the store-bound token's own store, another store and `all`. Wherever the
 * synchronous route answers 401, the async forms answer the same 401 with the same body and record
 * nothing; wherever it does not, neither do they. The bodies are empty (`{}`): the authorization
 * happens before any body is read, so a sync 400 for the missing input cannot hide a 401.
 */
import { expect } from 'chai';
import { needsGlobalCaller } from '../../../app/framework/config/AclConfig.js';
import { bulkUrl, hasAsyncForm } from '../../../app/framework/webapi-async/AsynchronousRequestProcessor.js';
import { Dispensary } from '../Recommendation/support.js';

const NONE_UUID = '00000000-0000-4000-8000-000000000000';

/** A value for each path parameter that names nothing, so no synchronous write changes data. */
function placeholder(name: string): string {
  if (/sku/i.test(name)) return 'WALK-NO-SUCH-SKU';
  if (/^(itemId|patientId|status)$/.test(name)) return '999999';
  return NONE_UUID;
}

describe('Async web API: every route refuses in its async and bulk forms exactly what its synchronous form refuses', function () {
  this.timeout(120_000);
  let d: Dispensary;
  const callers = new Map<string, string | null>();

  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('alpha');
    await d.t.createStore('beta');
    const created = await d.t.cli('admin:user:create', '--username', 'walker', '--password', 'walker123');
    expect(created.code, created.err.join('\n')).to.equal(0);
    const admin = await d
      .request()
      .post('/rest/V1/integration/admin/token')
      .send({ username: 'walker', password: 'walker123' });
    expect(admin.status).to.equal(200);
    callers.set('admin token', admin.body as string);
    callers.set('all-stores integration token', d.token);
    callers.set('token bound to alpha', await d.t.integrationToken({ store: 'alpha' }));
    callers.set(
      'token holding only Dispensary_Store::stores',
      await d.t.integrationToken({ allStores: true, resources: ['Dispensary_Store::stores'] }),
    );
    callers.set('no token', null);
  });
  after(() => d?.stop());

  const bulkCount = async () =>
    Number(((await d.t.app.knex('magento_bulk').count({ n: '*' }).first()) as { n: number | string }).n);

  it('should walk every async route and find the same refusals', async () => {
    const routes = [...d.t.app.routes.keys()].filter(hasAsyncForm);
    // The walk covers what the defect was about: product writes and stock updates.
    expect(routes.map((r) => `${r.method} ${r.url}`)).to.include.members([
      'POST /V1/products',
      'PUT /V1/products/:sku',
      'DELETE /V1/products/:sku',
      'PUT /V1/products/:productSku/stockItems/:itemId',
    ]);
    let refusals = 0;
    let storeBoundGlobalRefusals = 0;
    for (const route of routes) {
      const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const path = route.url.replace(/:(\w+)/g, (_, name: string) => placeholder(name));
      const element = Object.fromEntries(params.map((name) => [name, placeholder(name)]));
      for (const [callerName, token] of callers) {
        for (const scope of ['alpha', 'beta', 'all']) {
          const call = (url: string, body: object) => {
            const req = d.request()[route.method.toLowerCase() as 'post' | 'put' | 'delete'](`/rest/${scope}${url}`);
            return (token === null ? req : req.set('Authorization', `Bearer ${token}`)).send(body);
          };
          const what = `${route.method} ${route.url} by ${callerName} on ${scope}`;
          const sync = await call(path, {});
          const before = await bulkCount();
          const single = await call(`/async${path}`, {});
          const bulk = await call(`/async/bulk${bulkUrl(route.url)}`, [element]);
          if (sync.status === 401) {
            refusals++;
            if (callerName === 'token bound to alpha' && scope === 'alpha') storeBoundGlobalRefusals++;
            expect(single.status, `${what}: async`).to.equal(401);
            expect(single.body, `${what}: async`).to.deep.equal(sync.body);
            expect(bulk.status, `${what}: bulk`).to.equal(401);
            expect(bulk.body, `${what}: bulk`).to.deep.equal(sync.body);
            expect(await bulkCount(), `${what}: nothing recorded`).to.equal(before);
          } else {
            expect(single.status, `${what}: async (sync answered ${sync.status})`).to.not.equal(401);
            expect(bulk.status, `${what}: bulk (sync answered ${sync.status})`).to.not.equal(401);
          }
        }
      }
    }
    expect(refusals).to.be.greaterThan(0);
    // The store-bound token on its own store: refused only on the routes that change data of every store
    // (scope="global" routes) and on those needing an acl.xml scope="global" resource (webhooks, events).
    const globalRoutes = routes.filter((r) => r.scope === 'global').length;
    expect(globalRoutes).to.equal(4);
    const globalResourceRoutes = routes.filter((r) => r.resources.some((x) => needsGlobalCaller(d.t.app.acl, x)));
    expect(globalResourceRoutes.map((r) => `${r.method} ${r.url}`)).to.include.members([
      'POST /V1/webhooks/unsubscribe',
      'POST /V1/eventing/eventUnsubscribe/:name',
    ]);
    expect(storeBoundGlobalRefusals).to.equal(globalRoutes + globalResourceRoutes.length);
  });
});
