/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/RequestIdOverrideTest.php
 * on Magento's TestModule5: on PUT, the route's last path parameter overrides the id in the body
 * (Magento's Webapi\Controller\Rest\ParamsOverrider::overrideRequestBodyIdWithPathParam), inside
 * the body's single data object when that object declares the field, else at the top level.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/RequestIdOverrideTest.php (TestModule5)', () => {
  const m = magentoTestModulesApp();
  const path = '/V1/TestModule5/';

  it('testOverride: PUT /V1/TestModule5/1 with entity_id 2 in the body answers entity 1', async () => {
    const res = await m.call('put', `${path}1`, { entityItem: { entity_id: 2, name: 'test' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.entity_id, 'Identifier overriding failed.').to.equal(1);
  });

  it('testOverrideNested: the last path parameter (entityId 11) wins', async () => {
    const res = await m.call('put', `${path}1/nestedResource/11`, { entityItem: { entity_id: 2, name: 'test' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.entity_id, 'Identifier overriding failed for nested resource request.').to.equal(11);
  });

  it("testOverrideAdd: a body without the id gets the path's", async () => {
    const res = await m.call('put', `${path}1`, { entityItem: { name: 'test' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.entity_id, 'Identifier replacing failed.').to.equal(1);
  });

  it('testAddCaseMismatch: a camelCase entityId in the body is overridden too', async () => {
    const res = await m.call('put', `${path}1`, { entityItem: { entityId: 2, name: 'test' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.entity_id, 'Identifier overriding failed.').to.equal(1);
  });

  it('testOverrideWithScalarValues: top-level entity_id is overridden by the last path parameter', async () => {
    const res = await m.call('put', `${path}OverrideService/1/nestedResource/11`, {
      entity_id: 2,
      name: 'test',
      orders: true,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.entity_id, 'Identifier overriding failed.').to.equal(11);
  });
});
