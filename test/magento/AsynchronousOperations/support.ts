/**
 * Magento's fixture `dev/tests/integration/testsuite/Magento/AsynchronousOperations/_files/operation_searchable.php`:
 * one bulk (`bulk-uuid-searchable-6`, user 1, operation_count 3, started 2009-10-10) with three
 * processed operations (complete; not retriably failed 1111; retriably failed 2222). Magento's
 * fixture names no user type; here the bulk is the admin user 1's (user_type 2), the caller of
 * the ported tests, since the project shows a caller only its own bulks.
 */
import type { Knex } from 'knex';

export const SEARCHABLE_UUID = 'bulk-uuid-searchable-6';

export async function operationSearchable(knex: Knex, owner: { userType: number; userId: number }): Promise<void> {
  await knex('magento_bulk').insert({
    uuid: SEARCHABLE_UUID,
    user_type: owner.userType,
    user_id: owner.userId,
    description: 'Bulk Description',
    operation_count: 3,
    start_time: '2009-10-10 00:00:00',
  });
  const operation = (key: number, data: object, status: number, errorCode: number | null, message: string | null) => ({
    bulk_uuid: SEARCHABLE_UUID,
    operation_key: key,
    topic_name: 'topic-5',
    serialized_data: JSON.stringify(data),
    status,
    error_code: errorCode,
    result_message: message,
  });
  await knex('magento_operation').insert([
    operation(0, { entity_id: 5 }, 1, null, null),
    operation(1, { entity_id: 5, meta_information: 'Test' }, 3, 1111, 'Something went wrong during your request'),
    operation(2, { entity_id: 5 }, 2, 2222, 'Entity with ID=4 does not exist'),
  ]);
}
