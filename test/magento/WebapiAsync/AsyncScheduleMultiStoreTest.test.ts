/**
 * Ported from Magento 2.4: dev/tests/api-functional/testsuite/Magento/WebapiAsync/Model/AsyncScheduleMultiStoreTest.php
 * (`PUT /async/V1/products/:sku` under a store, then the name read under each store). REST only;
 * on the db queue, and on RabbitMQ when TEST_AMQP_URL is set. The fixture store
 * (core_fixturestore.php, code `fixturestore`, name `Fixture Store`) is made with store:create.
 *
 * Skipped (in the README's list): testAsyncScheduleBulkMultistore with data sets `default` and
 * `fixturestore`. They expect a store-view value: the new name only in the store the update was
 * made in. The project's products have no store-view values (a product's fields are global), so
 * the data set `all` (the name changes in every store) is the one that applies.
 */
import { expect } from 'chai';
import { QUEUE_MODES } from '../../modules/AsynchronousOperations/support.js';
import { magentoAsync, runConsumer, simpleProductData, webApiCall } from './support.js';

const STORES = ['default', 'fixturestore', 'all'];

for (const mode of QUEUE_MODES) {
  describe(`Magento WebapiAsync/Model/AsyncScheduleMultiStoreTest on the ${mode.name} queue${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
    this.timeout(60_000);
    const m = magentoAsync(mode, () => m.d.t.createStore('fixturestore', 'Fixture Store'));

    it('testAsyncScheduleBulkMultistore with data set "all"', async () => {
      const storeCode = 'all';
      const product = {
        product: simpleProductData({ type_id: 'simple', sku: 'multistore-sku-test-1', name: 'Test Name ' }),
      };
      // Precondition: the product exists (Magento saves it through the repository).
      const saved = await webApiCall(m, 'post', '/V1/products', product, 'all');
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);

      const newProductName = `Test Name ${storeCode}`;
      const update = { product: { ...product.product, name: newProductName, type_id: 'virtual' } };
      const res = await webApiCall(m, 'put', '/async/V1/products/multistore-sku-test-1', update, storeCode);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.bulk_uuid).to.be.a('string');
      expect(res.body.request_items).to.have.length(1);
      expect(res.body.request_items[0].status).to.equal('accepted');
      expect(res.body.errors).to.equal(false);
      await runConsumer(m, 1);

      for (const checkingStore of STORES) {
        const read = await webApiCall(m, 'get', '/V1/products/multistore-sku-test-1', undefined, checkingStore);
        expect(read.status, checkingStore).to.equal(200);
        expect(
          read.body.name,
          `Product name in ${checkingStore} store is invalid after updating in store ${storeCode}.`,
        ).to.equal(newProductName);
      }
    });

    it.skip(
      'testAsyncScheduleBulkMultistore with data sets "default" and "fixturestore" (store-view values: see the header)',
    );
  });
}
