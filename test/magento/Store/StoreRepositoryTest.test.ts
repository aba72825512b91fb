/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Store/Api/StoreRepositoryTest.php
 * (GET /V1/store/storeViews). Ported: testGetList. Skipped: none.
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

describe('Magento api-functional: Store\\Api\\StoreRepositoryTest', () => {
  const app = magentoApp();

  it('testGetList: more than one store view (the admin store 0 and default), keys in Magento 2.4 order', async () => {
    const res = await app.call('get', '/V1/store/storeViews');
    expect(res.status).to.equal(200);
    const storeViews = res.body as Record<string, unknown>[];
    expect(storeViews).to.not.equal(null);
    expect(storeViews.length).to.be.greaterThan(1);
    expect(Object.keys(storeViews[0]!)).to.deep.equal([
      'id',
      'code',
      'name',
      'website_id',
      'store_group_id',
      'is_active',
    ]);
  });
});
