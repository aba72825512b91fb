/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/PartialResponseTest.php.
 * Magento runs it on a customer (GET /V1/customers/:id?fields=...); this service has no
 * customers, so each case runs on Magento's test modules instead, with the same shape of filter:
 * a field (email -> name), a field and a field of every element of a list (addresses[city] ->
 * custom_attributes[value]), a field inside an object inside a list element
 * (addresses[region[region_code]] -> extension_attributes[custom_attribute_data_object[name]]),
 * an unknown field, and a filter on an answer that is not an object.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../support.js';

describe('Magento Webapi/PartialResponseTest.php (on TestModule1, TestModule3, TestModule5, TestModuleMSC)', () => {
  const m = magentoTestModulesApp();
  const entityItem = {
    item_id: 1,
    name: 'testProductAnyType',
    custom_attributes: [
      { attribute_code: 'custom_attribute1', value: 'a' },
      { attribute_code: 'custom_attribute2', value: 'b' },
    ],
  };

  it('testCustomerWithEmailFilter (fields=name on GET /V1/TestModule5/1)', async () => {
    const res = await m.call('get', '/V1/TestModule5/1?fields=name');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ name: 'testItemName' });
  });

  it('testCustomerWithEmailAndAddressFilter (fields=name,custom_attributes[value])', async () => {
    const res = await m.call('post', '/V1/testmodule1/itemAnyType?fields=name,custom_attributes[value]', {
      entityItem,
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ name: 'testProductAnyType', custom_attributes: [{ value: 'a' }, { value: 'b' }] });
  });

  it('testCustomerWithNestedAddressFilter (fields=extension_attributes[custom_attribute_data_object[name]])', async () => {
    const res = await m.call(
      'get',
      '/V1/testmoduleMSC/itemPreconfigured?fields=extension_attributes[custom_attribute_data_object[name]]',
    );
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ extension_attributes: { custom_attribute_data_object: { name: 'nameValue' } } });
  });

  it('testCustomerInvalidFilter: an unknown field answers an empty result', async () => {
    const res = await m.call('get', '/V1/TestModule5/1?fields=invalid');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({});
  });

  it('testFilterForCustomerApiWithSimpleResponse: a filter on a scalar answer is ignored', async () => {
    const res = await m.call('get', '/V1/errortest/returnIncompatibleDataType?fields=customers');
    expect(res.status).to.equal(200);
    expect(res.body).to.equal('incompatibleDataType');
  });
});
