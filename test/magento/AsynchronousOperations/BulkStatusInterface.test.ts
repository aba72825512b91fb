/**
 * Ported from Magento 2.4: dev/tests/api-functional/testsuite/Magento/AsynchronousOperations/Api/BulkStatusInterfaceTest.php
 * (`GET /V1/bulk/:bulkUuid/operation-status/:status`), with its fixture operation_searchable.php
 * (see ./support.ts). REST only.
 *
 * Departure (in the README's list): testGetListByBulkStartTime expects 2 open operations, which
 * its fixture cannot give: three operations scheduled, all three processed, so Magento's own
 * formula (scheduled minus processed) answers 0, as the port asserts.
 */
import { expect } from 'chai';
import request from 'supertest';
import { TestApp } from '../../support/testApp.js';
import { operationSearchable, SEARCHABLE_UUID } from './support.js';

describe('Magento AsynchronousOperations/Api/BulkStatusInterfaceTest', () => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await TestApp.start();
    const created = await t.cli('admin:user:create', '--username', 'apitest', '--password', 'apitest123');
    expect(created.code, created.err.join('\n')).to.equal(0);
    admin = (await request(t.http).post('/rest/V1/integration/admin/token').send({ username: 'apitest', password: 'apitest123' })).body as string;
    const { user_id: userId } = (await t.app.knex('admin_user').where({ username: 'apitest' }).first('user_id')) as { user_id: number };
    await operationSearchable(t.app.knex, { userType: 2, userId });
  });
  after(() => t?.stop());

  it('testGetListByBulkStartTime', async () => {
    const res = await request(t.http).get(`/rest/V1/bulk/${SEARCHABLE_UUID}/operation-status/4`).set('Authorization', `Bearer ${admin}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.equal(0);
    // The fixture's processed operations, one of each status.
    for (const status of [1, 2, 3]) {
      expect((await request(t.http).get(`/rest/V1/bulk/${SEARCHABLE_UUID}/operation-status/${status}`).set('Authorization', `Bearer ${admin}`)).body).to.equal(1);
    }
  });
});
