/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Store/Api/StoreConfigManagerTest.php
 * (GET /V1/store/storeConfigs). Ported: testGetStoreConfigs. Skipped: none.
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

describe('Magento api-functional: Store\\Api\\StoreConfigManagerTest', () => {
  const app = magentoApp();

  it("testGetStoreConfigs: storeCodes ['default'] answers one config with Magento's keys in order", async () => {
    // _webApiCall puts GET request data in the query string.
    const res = await app.call('get', '/V1/store/storeConfigs?storeCodes[0]=default');
    expect(res.status).to.equal(200);
    const storeConfigs = res.body as Record<string, unknown>[];
    expect(storeConfigs).to.have.length(1);
    expect(Object.keys(storeConfigs[0]!)).to.deep.equal([
      'id',
      'code',
      'website_id',
      'locale',
      'base_currency_code',
      'default_display_currency_code',
      'timezone',
      'weight_unit',
      'base_url',
      'base_link_url',
      'base_static_url',
      'base_media_url',
      'secure_base_url',
      'secure_base_link_url',
      'secure_base_static_url',
      'secure_base_media_url',
    ]);
  });
});
