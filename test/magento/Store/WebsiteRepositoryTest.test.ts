/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Store/Api/WebsiteRepositoryTest.php
 * (GET /V1/store/websites). Ported: testGetList. Skipped: none.
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

describe('Magento api-functional: Store\\Api\\WebsiteRepositoryTest', () => {
  const app = magentoApp();

  it('testGetList: more than one website (admin and base), keys in Magento 2.4 order', async () => {
    const res = await app.call('get', '/V1/store/websites');
    expect(res.status).to.equal(200);
    const websites = res.body as Record<string, unknown>[];
    expect(websites.length).to.be.greaterThan(1);
    expect(Object.keys(websites[0]!)).to.deep.equal(['id', 'code', 'name', 'default_group_id']);
  });
});
