import { expect } from 'chai';
import request from 'supertest';
import type { Application } from '../../../app/bootstrap/Application.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { startAppBehindProxy } from '../../support/proxiedApp.js';
import type { TcpProxy } from '../../support/tcpProxy.js';

const UNAVAILABLE = { message: 'The service is temporarily unavailable. Try again later.' };

/** Runs only against a database server (TEST_DATABASE_URL): SQLite has no connection to cut. */
describe('when the database becomes unreachable', function () {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: Application;
  let token: string;

  before(async function () {
    if (!process.env.TEST_DATABASE_URL || process.env.TEST_DATABASE_URL.startsWith('sqlite:')) this.skip();
    database = await createTestDatabase();
    ({ app, proxy, token } = await startAppBehindProxy(database, 'faults'));
  });

  after(async () => {
    await app?.close();
    await proxy?.stop();
    await database?.release();
  });

  const storeViews = () =>
    request(app.http()).get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);

  it('should answer 503 with a Magento body while it is away, and recover without a restart', async () => {
    expect((await storeViews()).status).to.equal(200);
    await proxy.cut();

    const read = await storeViews();
    expect(read.status).to.equal(503);
    expect(read.body).to.deep.equal(UNAVAILABLE);

    const write = await request(app.http())
      .post('/rest/all/V1/products')
      .set('Authorization', `Bearer ${token}`)
      .send({ product: { sku: 'cut-1', name: 'Cut' } });
    expect(write.status).to.equal(503);
    expect(write.body).to.deep.equal(UNAVAILABLE);

    const health = await request(app.http()).get('/health');
    expect(health.status).to.equal(503);

    await proxy.restore();
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
      recovered = (await storeViews()).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).to.equal(200);
    expect((await request(app.http()).get('/health')).status).to.equal(200);

    // Nothing of the refused write reached the database.
    const product = await request(app.http())
      .get('/rest/all/V1/products/cut-1')
      .set('Authorization', `Bearer ${token}`);
    expect(product.status).to.equal(404);
  });
});
