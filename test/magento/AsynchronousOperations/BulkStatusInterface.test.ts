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
import { SEARCHABLE_UUID, searchableApp } from './support.js';

describe('Magento AsynchronousOperations/Api/BulkStatusInterfaceTest', () => {
  const app = searchableApp();

  it('testGetListByBulkStartTime', async () => {
    const res = await app.t
      .request()
      .get(`/rest/V1/bulk/${SEARCHABLE_UUID}/operation-status/4`)
      .set('Authorization', `Bearer ${app.admin}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.equal(0);
    // The fixture's processed operations, one of each status.
    for (const status of [1, 2, 3]) {
      const res = await app.t
        .request()
        .get(`/rest/V1/bulk/${SEARCHABLE_UUID}/operation-status/${status}`)
        .set('Authorization', `Bearer ${app.admin}`);
      expect(res.body).to.equal(1);
    }
  });
});
