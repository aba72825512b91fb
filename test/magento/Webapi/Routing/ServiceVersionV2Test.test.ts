/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/ServiceVersionV2Test.php
 * (REST only) on Magento's TestModule1, V2 service. Magento compares with PHP's loose
 * assertEquals (`'price' => 1` equals "1"); the port compares with what Magento answers: the V2
 * item's getPrice() is declared `string`, so prices are strings here.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/ServiceVersionV2Test.php (TestModule1, V2)', () => {
  const m = magentoTestModulesApp();
  const path = '/V2/testmodule1/';
  const firstItem = { id: 1, name: 'testProduct1', price: '1' };
  const secondItem = { id: 2, name: 'testProduct2', price: '2' };

  it('testItem', async () => {
    const res = await m.call('get', `${path}1`);
    expect(res.status).to.equal(200);
    expect(res.body.price).to.equal('1');
  });

  it('testItems', async () => {
    const res = await m.call('get', path);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([firstItem, secondItem]);
  });

  const dataSets: [string, Record<string, string | number>[], unknown[]][] = [
    [
      'Both items filter',
      [
        { field: 'id', conditionType: 'eq', value: 1 },
        { field: 'id', conditionType: 'eq', value: 2 },
      ],
      [firstItem, secondItem],
    ],
    ['First item filter', [{ field: 'id', conditionType: 'eq', value: 1 }], [firstItem]],
    ['Second item filter', [{ field: 'id', conditionType: 'eq', value: 2 }], [secondItem]],
    ['Empty filter', [], [firstItem, secondItem]],
  ];
  for (const [name, filters, expected] of dataSets) {
    it(`testItemsWithFilters with data set "${name}": filters[i][conditionType] (camelCase) is read`, async () => {
      let restFilter = '';
      filters.forEach((filter, index) => {
        for (const [key, value] of Object.entries(filter)) {
          restFilter += `${restFilter === '' ? '?' : '&'}filters[${index}][${key}]=${value}`;
        }
      });
      const res = await m.call('get', path + restFilter);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal(expected);
    });
  }

  it('testUpdate', async () => {
    const res = await m.call('put', `${path}1`, { entityItem: { id: 1, name: 'testName', price: '4' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.name).to.equal('UpdatedtestName');
  });

  it('testDelete', async () => {
    const res = await m.call('delete', `${path}1`);
    expect(res.status).to.equal(200);
    expect(res.body.id).to.equal(1);
  });
});
