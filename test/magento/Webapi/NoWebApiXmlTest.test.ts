/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Webapi/Routing/NoWebApiXmlTest.php:
 * a service with no webapi.xml routes answers every REST call with BaseService::_assertNoRestRouteException,
 * 404 `Request does not match any route.`. The path is Magento's own (/V1/testModule2NoWebApiXml/).
 *
 * Ported: testItem, testItems, testCreate, testUpdate, testRemove. Skipped: none.
 */
import { expect } from 'chai';
import { magentoApp, type Method } from '../support.js';

const RESOURCE_PATH = '/V1/testModule2NoWebApiXml/';

describe('Magento api-functional: Webapi\\Routing\\NoWebApiXmlTest', () => {
  const app = magentoApp();

  const cases: [string, Method, string, object | undefined][] = [
    ['testItem', 'get', `${RESOURCE_PATH}1`, undefined],
    ['testItems', 'get', RESOURCE_PATH, undefined],
    ['testCreate', 'post', RESOURCE_PATH, { name: 'createdItemName' }],
    ['testUpdate', 'put', `${RESOURCE_PATH}1`, { id: 1 }],
    ['testRemove', 'delete', `${RESOURCE_PATH}1`, undefined],
  ];
  for (const [name, method, path, data] of cases) {
    it(name, async () => {
      const res = await app.call(method, path, data);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('Request does not match any route.');
    });
  }
});
