/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Store/Api/WebsiteRepositoryTest.php
 * (GET /V1/store/websites). Ported: testGetList. Skipped: none.
 */
import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';
import { webApiCall } from '../support.js';

describe('Magento api-functional: Store\\Api\\WebsiteRepositoryTest', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await TestApp.start();
    token = await t.integrationToken({ allStores: true });
  });
  after(async () => t?.stop());

  it('testGetList: more than one website (admin and base), keys in Magento 2.4 order', async () => {
    const res = await webApiCall(t, token, 'get', '/V1/store/websites');
    expect(res.status).to.equal(200);
    const websites = res.body as Record<string, unknown>[];
    expect(websites.length).to.be.greaterThan(1);
    expect(Object.keys(websites[0]!)).to.deep.equal(['id', 'code', 'name', 'default_group_id']);
  });
});
