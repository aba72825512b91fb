/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/NoWebApiXmlTest.php
 * on Magento's TestModule2: its NoWebApiXml service is served by di.xml but routed by no
 * webapi.xml, so every call answers "no route" (test/magento/Webapi/NoWebApiXmlTest.test.ts runs
 * the same cases on a path of the catalog).
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/NoWebApiXmlTest.php (TestModule2)', () => {
  const m = magentoTestModulesApp();
  const path = '/V1/testModule2NoWebApiXml/';
  const cases = [
    ['testItem', 'get', `${path}1`, undefined],
    ['testItems', 'get', path, undefined],
    ['testCreate', 'post', path, { name: 'createdItemName' }],
    ['testUpdate', 'put', `${path}1`, { id: 1 }],
    ['testRemove', 'delete', `${path}1`, undefined],
  ] as const;
  for (const [name, method, url, data] of cases) {
    it(name, async () => {
      const res = await m.call(method, url, data);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('Request does not match any route.');
    });
  }
});
