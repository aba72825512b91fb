/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/CoreRoutingTest.php
 * on Magento's TestModule1 (test/magento/Webapi/CoreRoutingTest.test.ts runs the same cases on
 * the catalog's routes). Skipped: testDisabledIntegrationAuthorizationException (an integration
 * here has no inactive status, only deletion), testExceptionSoapInternalError (no SOAP).
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/CoreRoutingTest.php (TestModule1)', () => {
  const m = magentoTestModulesApp();

  it('testBasicRoutingExplicitPath', async () => {
    const res = await m.call('get', '/V1/testmodule1/1');
    expect(res.status).to.equal(200);
    expect(res.body.name, 'Item was retrieved unsuccessfully').to.equal('testProduct1');
  });

  it('testRestNoAcceptHeader (2.4): no Accept header still answers JSON', async () => {
    const res = await m.t.request().get('/rest/V1/testmodule1/1').set('Authorization', `Bearer ${m.token}`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.body.name).to.equal('testProduct1');
  });

  it('an anonymous route of TestModule1 (/V1/testmodule1/resource1/:itemId) needs no token', async () => {
    const res = await m.t.request().get('/rest/V1/testmodule1/resource1/7');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ item_id: 7, name: 'testProduct1' });
  });
});
