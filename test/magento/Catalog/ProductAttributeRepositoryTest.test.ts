/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/Catalog/Api/ProductAttributeRepositoryTest.php
 * (/V1/products/attributes). This catalog serves the two read routes (get, getList) for the
 * attributes of the fields it keeps; it creates, changes and deletes no attribute.
 *
 * Ported: testGet (with `sku`: the fixture attribute test_attribute_code_333 cannot be created
 * here), testGetList (filtering frontend_input `text`: Magento's case filters `textarea`, an input
 * none of this catalog's attributes has), testDeleteNoSuchEntityException as a GET (the same
 * message, parameters and 404 come from Repository::get, which deleteById calls first).
 * Skipped, their routes (POST, PUT, DELETE) are not served: testCreate (both data sets),
 * testCreateWithExceptionIfAttributeAlreadyExists, testUpdate, testUpdateWithNoDefaultLabelAndAdminStorelabel,
 * testUpdateWithNoDefaultLabelAndNoAdminStoreLabel, testUpdateWithNewOption, testDeleteById,
 * testDeleteSystemAttributeById.
 */
import { expect } from 'chai';
import { magentoApp, httpBuildQuery } from '../support.js';

const RESOURCE_PATH = '/V1/products/attributes';

describe('Magento api-functional: Catalog\\Api\\ProductAttributeRepositoryTest', () => {
  const app = magentoApp();

  it('testGet (attribute sku)', async () => {
    const attributeCode = 'sku';
    const res = await app.call('get', `${RESOURCE_PATH}/${attributeCode}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.be.an('object');
    expect(res.body).to.have.property('attribute_id');
    expect(res.body).to.have.property('attribute_code');
    expect(res.body.attribute_code).to.equal(attributeCode);
  });

  it('testGetList (frontend_input text)', async () => {
    const searchCriteria = {
      searchCriteria: {
        filter_groups: [{ filters: [{ field: 'frontend_input', value: 'text', condition_type: 'eq' }] }],
        current_page: 1,
        page_size: 2,
      },
      entityTypeCode: 'catalog_product',
    };
    const res = await app.call('get', `${RESOURCE_PATH}?${httpBuildQuery(searchCriteria)}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.have.property('search_criteria');
    expect(res.body).to.have.property('total_count');
    expect(res.body).to.have.property('items');
    expect(res.body.search_criteria).to.deep.equal(searchCriteria.searchCriteria);
    expect(res.body.total_count).to.be.greaterThan(0);
    expect(res.body.items.length).to.be.greaterThan(0);
    expect(res.body.items[0].default_frontend_label).to.not.equal(undefined);
    expect(res.body.items[0].attribute_id).to.not.equal(undefined);
  });

  it('testDeleteNoSuchEntityException (as GET)', async () => {
    const attributeCode = 'some_test_code';
    const res = await app.call('get', `${RESOURCE_PATH}/${attributeCode}`);
    expect(res.body.message).to.equal(
      'The attribute with a "%1" attributeCode doesn\'t exist. Verify the attribute and try again.',
    );
    expect(res.body.parameters).to.deep.equal([attributeCode]);
    expect(res.status).to.equal(404);
  });
});
