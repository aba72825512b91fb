/**
 * Ported from Magento 2.4: dev/tests/api-functional/testsuite/Magento/AsynchronousOperations/Api/OperationRepositoryInterfaceTest.php
 * (`GET /V1/bulk?searchCriteria...`, Magento's OperationRepositoryInterface::getList), with its
 * fixture operation_searchable.php (see ./support.ts). REST only (the project has no SOAP).
 *
 * Departures, each in the README's list:
 * * testGetListByBulkStartTime: Magento expects `total_count` 6, which its fixture (three
 *   operations, the only bulk) cannot give; the port asserts the fixture's 3, and Magento's other
 *   assertions (keys, search_criteria echoed, every item of bulk-uuid-searchable-6).
 * * `search_criteria` is asserted equal to the criteria sent plus `page_size: 20`: Magento 2.4's
 *   ServiceInputProcessor gives search criteria without a page size its default_page_size (20),
 *   as the project does, so Magento's own echo carries it too.
 * * The search lists only the caller's own bulks' operations (Magento lists every bulk's): the
 *   fixture's bulk belongs to the admin user that calls, and one more case checks that another
 *   caller sees none of it.
 */
import { expect } from 'chai';
import { SEARCHABLE_UUID, searchableApp } from './support.js';

/** PHP's http_build_query, as Magento's harness builds the URL. */
function httpBuildQuery(value: unknown, prefix: string): string {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => httpBuildQuery(inner, `${prefix}[${key}]`))
      .join('&');
  }
  return `${encodeURIComponent(prefix)}=${encodeURIComponent(String(value))}`;
}

describe('Magento AsynchronousOperations/Api/OperationRepositoryInterfaceTest', () => {
  const app = searchableApp();

  const getList = (searchCriteria: object, token = app.admin) =>
    app.t
      .request()
      .get(`/rest/V1/bulk?${httpBuildQuery(searchCriteria, 'searchCriteria')}`)
      .set('Authorization', `Bearer ${token}`);

  it('testGetListByBulkStartTime', async () => {
    const searchCriteria = {
      filter_groups: [{ filters: [{ field: 'start_time', value: '2010-10-10 00:00:00', condition_type: 'lteq' }] }],
      current_page: 1,
    };
    const res = await getList(searchCriteria);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.keys('items', 'search_criteria', 'total_count');
    expect(res.body.search_criteria).to.deep.equal({ ...searchCriteria, page_size: 20 });
    expect(res.body.total_count).to.equal(3);
    expect(res.body.items).to.have.length(3);
    for (const item of res.body.items) expect(item.bulk_uuid).to.equal(SEARCHABLE_UUID);
    // Magento's OperationInterface fields, in its getters' order.
    expect(Object.keys(res.body.items[1])).to.deep.equal([
      'id',
      'bulk_uuid',
      'topic_name',
      'serialized_data',
      'result_serialized_data',
      'status',
      'result_message',
      'error_code',
    ]);
  });

  it('testGetList', async () => {
    const searchCriteria = {
      filter_groups: [
        { filters: [{ field: 'bulk_uuid', value: SEARCHABLE_UUID, condition_type: 'eq' }] },
        { filters: [{ field: 'status', value: '3', condition_type: 'eq' }] },
      ],
      current_page: 1,
    };
    const res = await getList(searchCriteria);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.keys('items', 'search_criteria', 'total_count');
    expect(res.body.search_criteria).to.deep.equal({ ...searchCriteria, page_size: 20 });
    expect(res.body.total_count).to.equal(1);
    expect(res.body.items).to.have.length(1);
    expect(res.body.items[0]).to.deep.equal({
      id: 1,
      bulk_uuid: SEARCHABLE_UUID,
      topic_name: 'topic-5',
      serialized_data: '{"entity_id":5,"meta_information":"Test"}',
      result_serialized_data: null,
      status: 3,
      result_message: 'Something went wrong during your request',
      error_code: 1111,
    });
  });

  it("(project) should list none of another caller's operations", async () => {
    const other = await app.t.integrationToken({ allStores: true });
    const res = await getList(
      { filter_groups: [{ filters: [{ field: 'bulk_uuid', value: SEARCHABLE_UUID, condition_type: 'eq' }] }] },
      other,
    );
    expect(res.status).to.equal(200);
    expect(res.body.total_count).to.equal(0);
    expect(res.body.items).to.deep.equal([]);
  });
});
