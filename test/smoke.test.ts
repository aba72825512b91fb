import { expect } from 'chai';
import { TestApp } from './support/testApp.js';

describe('smoke', () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t?.stop());

  it('should list store views with an all-stores token', async () => {
    await t.createStore('practice_a');
    const token = await t.integrationToken({ allStores: true });
    const res = await t.request().get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(200);
    expect(res.body.map((s: { code: string }) => s.code)).to.deep.equal(['admin', 'default', 'practice_a']);
  });

  it('should answer 401 without a token', async () => {
    const res = await t.request().get('/rest/V1/store/storeViews');
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.equal({
      message: "The consumer isn't authorized to access %resources.",
      parameters: { resources: 'Dispensary_Store::stores' },
    });
  });
});
