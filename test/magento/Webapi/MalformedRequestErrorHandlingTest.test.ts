/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Webapi/Routing/MalformedRequestErrorHandlingTest.php
 * (magento/magento2 issue 31551: a malformed body or parameter answers a 4xx, never 500). Its
 * cases call customer, configurable-product and search routes this service does not serve; the
 * two kinds of malformed input they send are ported onto served routes of the same kind.
 *
 * Ported: testPutConfigurableProductVariationWithScalarBodyReturns400 and
 * testPutCustomersMeWithScalarCustomerBodyReturns400 (a scalar "" where an object belongs) onto
 * PUT /V1/products/:sku and POST /V1/products; testGetCustomersSearchWithNumericFilterFieldReturns400
 * (a numeric filter field) onto GET /V1/products and GET /V1/products/attributes.
 * Skipped: testGetSearchWithInvalidRequestNameReturns404 (/V1/search is not served),
 * testPostResetPasswordWithEmptyStringsReturns400 (no customer accounts).
 */
import { expect } from 'chai';
import { magentoApp, type Method } from '../support.js';

describe('Magento api-functional: Webapi\\Routing\\MalformedRequestErrorHandlingTest', () => {
  const app = magentoApp();
  before(async () => {
    const product = { sku: 'm-1', name: 'M', price: 1 };
    expect((await app.call('post', '/V1/products', { product })).status).to.equal(200);
  });

  /** assertClientErrorHttpCode */
  async function assertClientErrorHttpCode(
    method: Method,
    path: string,
    data: object | undefined,
    expected: number,
  ): Promise<void> {
    const res = await app.call(method, path, data);
    expect(res.status, 'Malformed request must not produce HTTP 500').to.not.equal(500);
    expect(res.status, JSON.stringify(res.body)).to.equal(expected);
  }

  it('testPutCustomersMeWithScalarCustomerBodyReturns400 (PUT /V1/products/:sku with "product": "")', async () => {
    await assertClientErrorHttpCode('put', '/V1/products/m-1', { product: '' }, 400);
  });

  it('testPutConfigurableProductVariationWithScalarBodyReturns400 (POST /V1/products with "product": "", "saveOptions": "")', async () => {
    await assertClientErrorHttpCode('post', '/V1/products', { product: '', saveOptions: '' }, 400);
  });

  for (const path of ['/V1/products', '/V1/products/attributes']) {
    it(`testGetCustomersSearchWithNumericFilterFieldReturns400 (GET ${path})`, async () => {
      await assertClientErrorHttpCode(
        'get',
        `${path}?searchCriteria[filterGroups][0][filters][0][field]=1`,
        undefined,
        400,
      );
    });
  }
});
