/**
 * A module adds a `/rest` request processor through di.xml (issue 28): Fixture_Pipeline's
 * etc/webapi_rest/di.xml adds `fixture_ping` to `Framework\Webapi\Rest\RequestProcessorPool`, and
 * `GET /rest/<scope>/fixture/ping` answers from it, after the store was resolved; without the
 * module the same path goes to the synchronous routes (404). The framework's own processors keep
 * answering as before.
 */
import { expect } from 'chai';
import { PROJECT_MODULE_SOURCES } from '../../support/modules.js';
import { TestApp } from '../../support/testApp.js';
import { fixtureCodeDir, fixtureSourceDir } from '../support/moduleTree.js';

const PIPELINE = { modulesDir: fixtureSourceDir('pipeline'), codeDir: fixtureCodeDir('pipeline') };

describe('RequestProcessorPool: a processor a module adds through di.xml', function () {
  this.timeout(30_000);
  let t: TestApp;
  let without: TestApp;
  before(async () => {
    t = await TestApp.start({ moduleSources: [PROJECT_MODULE_SOURCES, PIPELINE] });
    without = await TestApp.start({
      moduleSources: [PROJECT_MODULE_SOURCES, PIPELINE],
      modules: { Fixture_Pipeline: false },
    });
  });
  after(async () => {
    await t?.stop();
    await without?.stop();
  });

  it("should answer the module's path from its processor, with the store resolved first", async () => {
    const res = await t.request().get('/rest/default/fixture/ping');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ pong: true, method: 'GET', store: 'default' });
    const all = await t.request().post('/rest/all/fixture/ping');
    expect(all.body).to.deep.equal({ pong: true, method: 'POST', store: 'admin' });
    const unknown = await t.request().get('/rest/nowhere/fixture/ping');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.message).to.equal('The store code "%storeCode" is unknown. Verify the store and try again.');
  });

  it('should leave the path to the synchronous routes without the module', async () => {
    const res = await without.request().get('/rest/default/fixture/ping');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ message: 'Request does not match any route.' });
  });

  it("should keep the framework's processors: the schema, the async web API, the routes, and 400 for none", async () => {
    const schema = await t.request().get('/rest/default/schema');
    expect(schema.status).to.equal(200);
    expect(schema.body.swagger).to.equal('2.0');
    const asyncGet = await t.request().get('/rest/default/async/V1/dispensary/recommendation/1/item');
    expect(asyncGet.status).to.equal(400);
    expect(asyncGet.body.message).to.equal('Specified request cannot be processed.');
    const route = await t.request().get('/rest/default/V1/store/storeViews');
    expect(route.status).to.equal(401);
    const nothing = await t.request().get('/rest/default/');
    expect(nothing.status).to.equal(400);
    expect(nothing.body.message).to.equal('Specified request cannot be processed.');
  });
});
