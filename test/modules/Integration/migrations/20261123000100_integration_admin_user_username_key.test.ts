import { expect } from 'chai';
import { TestApp } from '../../../support/testApp.js';

const USERNAME_KEY = '20261123000100_integration_admin_user_username_key';

describe('Integration: the username_key migration', () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t?.stop());

  const migrate = (direction: 'up' | 'down') =>
    t.app.knex.migrate[direction]({ migrationSource: t.app.migrationSource(), name: USERNAME_KEY });
  const user = (username: string, id: number) => ({
    user_id: id,
    username,
    password_hash: 'scrypt$x',
    created_at: '2026-01-01 00:00:00',
  });

  it('should fill the key of existing users, and go down and up again', async () => {
    await migrate('down');
    await t.app.knex('admin_user').insert(user(' Mixed.Case ', 100));
    await migrate('up');
    expect((await t.app.knex('admin_user').where({ user_id: 100 }).first()).username_key).to.equal('mixed.case');
    await t.app.knex('admin_user').where({ user_id: 100 }).delete();
  });

  it('should stop, naming both, when two users differ only in case, and change nothing', async function () {
    // On MySQL the old unique index on `username` had a case-insensitive collation: such pairs cannot exist there.
    if (t.app.database.dialect === 'mysql') this.skip();
    await migrate('down');
    await t.app.knex('admin_user').insert([user('Clash', 101), user('CLASH', 102)]);
    let error: Error | undefined;
    await migrate('up').catch((e: Error) => (error = e));
    expect(error?.message).to.contain('"Clash" and "CLASH" differ only in case');
    expect(await t.app.knex.schema.hasColumn('admin_user', 'username_key')).to.equal(false);
    await t.app.knex('admin_user').where({ user_id: 102 }).delete();
    await migrate('up');
    expect(await t.app.knex.schema.hasColumn('admin_user', 'username_key')).to.equal(true);
  });

  it('should keep the key unique in the database itself', async () => {
    const row = { username: 'x', username_key: 'same', password_hash: 'scrypt$x', created_at: '2026-01-01 00:00:00' };
    await t.app.knex('admin_user').insert(row);
    let error: unknown;
    await t.app
      .knex('admin_user')
      .insert({ ...row, username: 'X' })
      .catch((e: unknown) => (error = e));
    expect(error, 'duplicate key accepted').to.not.equal(undefined);
  });
});
