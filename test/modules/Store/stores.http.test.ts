import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';

describe('Store: stores and scopes', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await TestApp.start();
    token = await t.integrationToken({ allStores: true });
  });
  after(async () => t?.stop());

  it('should have the default store after install, and list stores with Magento fields', async () => {
    const res = await t.request().get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([
      { id: 0, code: 'admin', name: 'Admin', website_id: 0, store_group_id: 0, is_active: 1 },
      { id: 1, code: 'default', name: 'Default Store View', website_id: 1, store_group_id: 1, is_active: 1 },
    ]);
  });

  it('should create a store with the CLI and serve its scope at once', async () => {
    const result = await t.cli('store:create', '--code', 'north_clinic', '--name', 'North Clinic');
    expect(result.code).to.equal(0);
    const res = await t.request().get('/rest/north_clinic/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(200);
    expect(res.body.map((s: { code: string }) => s.code)).to.deep.equal(['admin', 'default', 'north_clinic']);
  });

  it('should refuse store codes that break Magento rules, reserved codes and duplicates', async () => {
    for (const code of ['1abc', 'Upper', 'has-dash', 'a'.repeat(33), 'all', 'admin', 'default']) {
      const result = await t.cli('store:create', '--code', code, '--name', 'X');
      expect(result.code, code).to.equal(1);
    }
  });

  it('should answer 400 naming an unknown store code', async () => {
    const res = await t.request().get('/rest/nowhere/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(400);
    expect(res.body.parameters).to.deep.equal({ storeCode: 'nowhere' });
  });

  it("should list Magento's admin store 0 but not serve it as a scope (Magento's path processor leaves it out too)", async () => {
    const res = await t.request().get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(res.body[0]).to.include({ id: 0, code: 'admin' });
    const admin = await t.request().get('/rest/admin/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(admin.status).to.equal(400);
    expect(admin.body.parameters).to.deep.equal({ storeCode: 'admin' });
    // Nor can a token be bound to it.
    const bound = await t.cli('integration:token:create', '--name', 'bound-to-admin', '--store', 'admin');
    expect(bound.code).to.equal(1);
  });
});
