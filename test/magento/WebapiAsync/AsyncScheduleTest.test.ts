/**
 * Ported from Magento 2.4: dev/tests/api-functional/testsuite/Magento/WebapiAsync/Model/AsyncScheduleTest.php
 * (`POST /async/V1/products`, the async.operations.all consumer, a GET on /async). REST only; on
 * the db queue, and on RabbitMQ when TEST_AMQP_URL is set. No case skipped.
 */
import { expect } from 'chai';
import { QUEUE_MODES } from '../../modules/AsynchronousOperations/support.js';
import { magentoAsync, productsCreated, runConsumer, simpleProductData, webApiCall } from './support.js';

for (const mode of QUEUE_MODES) {
  describe(`Magento WebapiAsync/Model/AsyncScheduleTest on the ${mode.name} queue${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
    this.timeout(60_000);
    const m = magentoAsync(mode);

    // productCreationProvider: a simple and a virtual product.
    for (const [dataSet, product] of [
      ['#0', { product: simpleProductData({ type_id: 'simple', sku: 'psku-test-1' }) }],
      ['#1', { product: simpleProductData({ type_id: 'virtual', sku: 'psku-test-2' }) }],
    ] as const) {
      it(`testAsyncScheduleBulk with data set ${dataSet}`, async () => {
        const res = await webApiCall(m, 'post', '/async/V1/products', product);
        expect(res.status, JSON.stringify(res.body)).to.equal(202);
        expect(res.body).to.have.property('bulk_uuid').that.is.a('string');
        expect(res.body.request_items).to.have.length(1);
        expect(res.body.request_items[0].status).to.equal('accepted');
        expect(res.body.errors).to.equal(false);
        await runConsumer(m, 1);
        expect(await productsCreated(m, [product.product.sku as string])).to.equal(1);
      });
    }

    it('testGETRequestToAsync', async () => {
      const res = await webApiCall(m, 'get', '/async/V1/products/psku-test-1');
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Specified request cannot be processed.');
    });
  });
}
