/**
 * Magento's fixture `dev/tests/integration/testsuite/Magento/AsynchronousOperations/_files/operation_searchable.php`:
 * one bulk (`bulk-uuid-searchable-6`, user 1, operation_count 3, started 2009-10-10) with three
 * processed operations (complete; not retriably failed 1111; retriably failed 2222). Magento's
 * fixture names no user type; here the bulk is the admin user 1's (user_type 2), the caller of
 * the ported tests, since the project shows a caller only its own bulks.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { TestApp } from '../../support/testApp.js';

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

/** The application of a test file, and the admin token of the fixture bulk's owner. */
export interface SearchableApp {
  readonly t: TestApp;
  readonly admin: string;
}

/**
 * The set-up both ported files share, in the calling `describe`: an application, the admin user
 * `apitest` (Magento's harness calls as an admin) and its token, the fixture bulk owned by that
 * user; stopped after. The object answered is filled in by the `before` hook.
 */
export function searchableApp(): SearchableApp {
  const app: { t?: TestApp; admin?: string } = {};
  before(async () => {
    const t = (app.t = await TestApp.start());
    const created = await t.cli('admin:user:create', '--username', 'apitest', '--password', 'apitest123');
    expect(created.code, created.err.join('\n')).to.equal(0);
    const login = await t
      .request()
      .post('/rest/V1/integration/admin/token')
      .send({ username: 'apitest', password: 'apitest123' });
    app.admin = login.body as string;
    const user = (await t.app.knex('admin_user').where({ username: 'apitest' }).first('user_id')) as {
      user_id: number;
    };
    const userId = user.user_id;
    await operationSearchable(t.app.knex, { userType: 2, userId });
  });
  after(() => app.t?.stop());
  return app as SearchableApp;
}
