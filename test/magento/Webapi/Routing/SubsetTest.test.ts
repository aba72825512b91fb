/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/SubsetTest.php
 * on Magento's TestModule2: webapi.xml routes two of its service's five operations.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/SubsetTest.php (TestModule2)', () => {
  const m = magentoTestModulesApp();
  const path = '/V1/testModule2SubsetRest/';

  it('testItem', async () => {
    const res = await m.call('get', `${path}1`);
    expect(res.status).to.equal(200);
    expect(res.body.id, 'Item was retrieved unsuccessfully').to.equal(1);
  });

  it('testItems', async () => {
    const res = await m.call('get', path);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([
      { id: 1, name: 'testItem1' },
      { id: 2, name: 'testItem2' },
    ]);
  });

  it('the operations webapi.xml does not route answer 404 (create, update, remove)', async () => {
    for (const [method, url] of [
      ['post', path],
      ['put', `${path}1`],
      ['delete', `${path}1`],
    ] as const) {
      const res = await m.call(method, url, { name: 'x' });
      expect(res.status, `${method} ${url}`).to.equal(404);
    }
  });
});
