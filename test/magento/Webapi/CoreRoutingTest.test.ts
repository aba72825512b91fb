/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Webapi/Routing/CoreRoutingTest.php.
 * Magento's cases call its test module TestModule1 (/V1/testmodule1/:id), which is not part of a
 * shop; ported here onto a served route of the same shape, GET /V1/products/:sku.
 *
 * Ported: testBasicRoutingExplicitPath, testRestNoAcceptHeader.
 * Skipped: testDisabledIntegrationAuthorizationException (an integration here is active until
 * deleted: there is no inactive status to set), testExceptionSoapInternalError (SOAP is not served).
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

describe('Magento api-functional: Webapi\\Routing\\CoreRoutingTest', () => {
  const app = magentoApp();
  before(async () => {
    const product = { sku: 'testProduct1', name: 'testProduct1', price: 1 };
    expect((await app.call('post', '/V1/products', { product })).status).to.equal(200);
  });

  it('testBasicRoutingExplicitPath (GET /V1/products/:sku)', async () => {
    const res = await app.call('get', '/V1/products/testProduct1');
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('testProduct1');
  });

  it('testRestNoAcceptHeader: an empty Accept header still answers JSON', async () => {
    const res = await app.t
      .request()
      .get('/rest/V1/products/testProduct1')
      .set('Authorization', `Bearer ${app.token}`)
      .set('Accept', '');
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('testProduct1');
  });
});
