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
import request from 'supertest';
import { TestApp } from '../../support/testApp.js';
import { webApiCall } from '../support.js';

describe('Magento api-functional: Webapi\\Routing\\CoreRoutingTest', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await TestApp.start();
    token = await t.integrationToken({ allStores: true });
    expect((await webApiCall(t, token, 'post', '/V1/products', { product: { sku: 'testProduct1', name: 'testProduct1', price: 1 } })).status).to.equal(200);
  });
  after(async () => t?.stop());

  it('testBasicRoutingExplicitPath (GET /V1/products/:sku)', async () => {
    const res = await webApiCall(t, token, 'get', '/V1/products/testProduct1');
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('testProduct1');
  });

  it('testRestNoAcceptHeader: an empty Accept header still answers JSON', async () => {
    const res = await request(t.http).get('/rest/V1/products/testProduct1').set('Authorization', `Bearer ${token}`).set('Accept', '');
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('testProduct1');
  });
});
