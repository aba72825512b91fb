/**
 * `admin:user:deactivate` / `admin:user:activate` (Magento's `admin_user.is_active`): a deactivated
 * admin cannot sign in, with Magento's message (User::verifyIdentity), and every token it holds is
 * refused at once, in this process and in another server process on the same database; activating
 * it again lets it sign in for new tokens, the old ones staying revoked (Magento's AdminUser plugin
 * revokes them on deactivation).
 */
import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';
import { freePort, ServerProcess } from '../../support/serverProcess.js';

const SIGN_IN_REFUSED = {
  message:
    'The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later.',
};
const DENIED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Dispensary_Store::stores' },
};

describe('Integration: admin users can be deactivated', function () {
  this.timeout(60_000);
  let t: TestApp;
  let server: ServerProcess;
  before(async () => {
    // Refusals answered at once: the minimum time of a refusal has its own test (adminLogin.http),
    // and here it would only make the seven sign-ins below wait 7 s.
    t = await TestApp.start({ adminLogin: { failureDelayMs: 0 } });
    const created = await t.cli('admin:user:create', '--username', 'nurse', '--password', 'nurse1234');
    expect(created.code, created.err.join('\n')).to.equal(0);
    server = ServerProcess.spawn(t.databaseUrl, await freePort());
    await server.ready();
  });
  after(async () => {
    await server?.stop();
    await t?.stop();
  });

  const login = (username = 'nurse', password = 'nurse1234') =>
    t.request().post('/rest/V1/integration/admin/token').send({ username, password });
  const here = (token: string) =>
    t.request().get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
  const there = (token: string) =>
    fetch(`${server.url}/rest/all/V1/store/storeViews`, { headers: { Authorization: `Bearer ${token}` } });

  it("should refuse the tokens at once in every process, refuse sign-in with Magento's message, and sign in again once activated", async () => {
    const signedIn = await login();
    expect(signedIn.status).to.equal(200);
    const token = signedIn.body as string;
    expect((await here(token)).status).to.equal(200);
    expect((await there(token)).status).to.equal(200);

    const deactivated = await t.cli('admin:user:deactivate', '--username', 'NURSE');
    expect(deactivated.code, deactivated.err.join('\n')).to.equal(0);
    expect(deactivated.out.join('\n')).to.contain('Deactivated "NURSE"; 1 token(s) revoked.');
    expect((await here(token)).status).to.equal(401);
    expect((await here(token)).body).to.deep.equal(DENIED);
    const elsewhere = await there(token);
    expect(elsewhere.status).to.equal(401);
    expect(await elsewhere.json()).to.deep.equal(DENIED);

    // The right password of a deactivated user: Magento's one message, and no step towards the lock.
    for (let i = 0; i < 7; i++) {
      const refused = await login();
      expect(refused.status).to.equal(401);
      expect(refused.body).to.deep.equal(SIGN_IN_REFUSED);
    }
    expect((await t.cli('admin:user:deactivate', '--username', 'nurse')).out.join('\n')).to.contain(
      'Already inactive: "nurse"; 0 token(s) revoked.',
    );

    const activated = await t.cli('admin:user:activate', '--username', 'nurse');
    expect(activated.code, activated.err.join('\n')).to.equal(0);
    expect(activated.out.join('\n')).to.contain('Activated "nurse".');
    expect((await here(token)).status, 'a token revoked on deactivation stays revoked').to.equal(401);
    const again = await login();
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect((await here(again.body as string)).status).to.equal(200);
    expect((await there(again.body as string)).status).to.equal(200);
  });

  it('should refuse a token issued before the user was deactivated even if it was not revoked (the lookup reads the user)', async () => {
    const token = (await login()).body as string;
    // As if a sign-in raced the deactivation and stored its token after the revocation.
    await t.app.knex('admin_user').where({ username: 'nurse' }).update({ is_active: false });
    expect((await here(token)).status).to.equal(401);
    expect((await there(token)).status).to.equal(401);
    await t.app.knex('admin_user').where({ username: 'nurse' }).update({ is_active: true });
    expect((await here(token)).status).to.equal(200);
  });

  it('should name an unknown user and change nothing', async () => {
    for (const command of ['admin:user:deactivate', 'admin:user:activate']) {
      const result = await t.cli(command, '--username', 'nobody');
      expect(result.code, command).to.not.equal(0);
      expect(result.err.join('\n'), command).to.contain('No admin user is named "nobody".');
    }
  });
});
