/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/GettersTest.php
 * on Magento's TestModule5: the fields of isEnabled() and hasOrders() are `enabled` and `orders`.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/GettersTest.php (TestModule5)', () => {
  const m = magentoTestModulesApp();

  it('testGetters', async () => {
    const res = await m.call('get', '/V1/TestModule5/1');
    expect(res.status).to.equal(200);
    expect(res.body.entity_id, 'Item was retrieved unsuccessfully').to.equal(1);
    expect(res.body.enabled, 'Getter with "is" prefix is processed incorrectly.').to.equal(true);
    expect(res.body.orders, 'Getter with "has" prefix is processed incorrectly.').to.equal(true);
  });
});
