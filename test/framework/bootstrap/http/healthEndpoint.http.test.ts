import { expect } from 'chai';
import { TestApp } from '../../../support/testApp.js';

describe('GET /health', () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t?.stop());

  it('should answer 200 while the database answers, without a token', async () => {
    const res = await t.request().get('/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok', database: 'up' });
  });

  it('should answer 503 once the database is gone', async () => {
    await t.app.knex.destroy();
    const res = await t.request().get('/health');
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ status: 'unavailable', database: 'down' });
  });
});
