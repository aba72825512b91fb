/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Store/Api/GroupRepositoryTest.php
 * (GET /V1/store/storeGroups). Ported: testGetList (2.4's version, which expects `code` last).
 * Skipped: none.
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

describe('Magento api-functional: Store\\Api\\GroupRepositoryTest', () => {
  const app = magentoApp();

  it('testGetList: more than one store group (admin group 0 and the main one), keys in Magento 2.4 order', async () => {
    const res = await app.call('get', '/V1/store/storeGroups');
    expect(res.status).to.equal(200);
    const storeGroups = res.body as Record<string, unknown>[];
    expect(storeGroups.length).to.be.greaterThan(1);
    expect(Object.keys(storeGroups[0]!)).to.deep.equal([
      'id',
      'website_id',
      'root_category_id',
      'default_store_id',
      'name',
      'code',
    ]);
  });
});
