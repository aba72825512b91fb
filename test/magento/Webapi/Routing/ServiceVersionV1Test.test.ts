/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/ServiceVersionV1Test.php
 * (REST only) on Magento's TestModule1 (test/fixtures/magento/modules/Magento/TestModule1).
 * testCreateWithoutResources: Magento asks for a token with no resources; this project's token
 * command gives every resource when none is named, so the token here holds one resource of
 * another module (Magento_TestModule5::resource1), which is none of the route's.
 */
import { expect } from 'chai';
import { webApiCall, magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/ServiceVersionV1Test.php (TestModule1, V1)', () => {
  const m = magentoTestModulesApp();
  const path = '/V1/testmodule1/';

  it('testItem', async () => {
    const res = await m.call('get', `${path}1`);
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('testProduct1');
  });

  it('testItemAnyType: custom attribute values keep their JSON type (string, integer, boolean)', async () => {
    const entityItem = {
      item_id: 1,
      name: 'testProductAnyType',
      custom_attributes: [
        { attribute_code: 'custom_attribute1', value: '12345' },
        { attribute_code: 'custom_attribute2', value: 12345 },
        { attribute_code: 'custom_attribute3', value: true },
      ],
    };
    const res = await m.call('post', `${path}itemAnyType`, { entityItem });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.custom_attributes[0].value).to.equal('12345');
    expect(res.body.custom_attributes[1].value).to.equal(12345);
    expect(res.body.custom_attributes[2].value).to.equal(true);
    expect(res.body).to.deep.equal(entityItem);
  });

  it('testItems', async () => {
    const res = await m.call('get', path);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([
      { item_id: 1, name: 'testProduct1' },
      { item_id: 2, name: 'testProduct2' },
    ]);
  });

  it('testCreate', async () => {
    const res = await m.call('post', path, { name: 'createdItemName' });
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('createdItemName');
  });

  it('testCreateWithoutResources', async () => {
    const token = await m.t.integrationToken({ allStores: true, resources: ['Magento_TestModule5::resource1'] });
    const res = await webApiCall(m.t, token, 'post', path, { name: 'createdItemName' });
    expect(res.status).to.equal(401);
    expect(res.body.message).to.equal("The consumer isn't authorized to access %resources.");
    expect(res.body.parameters).to.deep.equal({ resources: 'Magento_TestModule1::resource3' });
  });

  it('testUpdate: camelCase keys inside the data object (itemId) are read as item_id', async () => {
    const res = await m.call('put', `${path}1`, { entityItem: { itemId: 1, name: 'testName' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ item_id: 1, name: 'UpdatedtestName' });
  });

  it('testDelete: DELETE exists only in V2', async () => {
    const res = await m.call('delete', `${path}1`);
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal('Request does not match any route.');
  });

  it('testOverwritten: <parameter force="true"> wins over the path', async () => {
    const res = await m.call('get', `${path}overwritten`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ item_id: -55, name: 'testProduct1' });
  });

  it("testDefaulted: a `[]` body (PHP's empty array) is an empty object; <parameter> gives the default", async () => {
    const res = await m.call('post', `${path}testOptionalParam`, []);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ item_id: 3, name: 'Default Name' });
  });

  it('testDefaultedWithValue', async () => {
    const res = await m.call('post', `${path}testOptionalParam`, { name: 'Ms. LaGrange' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ item_id: 3, name: 'Ms. LaGrange' });
  });
});
