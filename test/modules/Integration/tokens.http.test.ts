import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';

const DENIED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Dispensary_Store::stores' },
};

describe('Integration: tokens and authorization', () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
    await t.createStore('alpha');
    await t.createStore('beta');
  });
  after(async () => t?.stop());

  const storeViews = (scope: string, authorization?: string) => {
    const req = t.request().get(`/rest/${scope}V1/store/storeViews`);
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };

  describe('when the CLI creates an integration token', () => {
    it('should print the token alone on the last line: 32 lower-case letters and digits', async () => {
      const result = await t.cli('integration:token:create', '--name', 'cli-shape', '--all-stores');
      expect(result.code).to.equal(0);
      expect(result.out.filter((l) => l !== '').pop()).to.match(/^[a-z0-9]{32}$/);
    });

    it('should store only a hash of the token', async () => {
      const token = await t.integrationToken({ name: 'hash-only', allStores: true });
      const rows = await t.app.knex('integration_token').where({ name: 'hash-only' });
      expect(rows).to.have.length(1);
      expect(JSON.stringify(rows)).not.to.contain(token);
    });

    it('should refuse a second active token with the same name, and allow it after revoking', async () => {
      await t.integrationToken({ name: 'unique-name', allStores: true });
      const again = await t.cli('integration:token:create', '--name', 'unique-name', '--all-stores');
      expect(again.code).to.equal(1);
      expect(again.err.join('\n')).to.contain('unique-name');
      expect((await t.cli('integration:token:revoke', '--name', 'unique-name')).code).to.equal(0);
      expect((await t.cli('integration:token:create', '--name', 'unique-name', '--all-stores')).code).to.equal(0);
    });

    it('should refuse a token with both or neither of --store and --all-stores, an unknown store or resource', async () => {
      expect((await t.cli('integration:token:create', '--name', 'x1')).code).to.equal(1);
      expect(
        (await t.cli('integration:token:create', '--name', 'x2', '--store', 'alpha', '--all-stores')).code,
      ).to.equal(1);
      expect((await t.cli('integration:token:create', '--name', 'x3', '--store', 'nowhere')).code).to.equal(1);
      expect(
        (await t.cli('integration:token:create', '--name', 'x4', '--all-stores', '--resource', 'No_Such::thing')).code,
      ).to.equal(1);
    });

    it('should fail to revoke a name that has no active token', async () => {
      const result = await t.cli('integration:token:revoke', '--name', 'never-created');
      expect(result.code).to.equal(1);
    });
  });

  describe('when a request carries a bad token', () => {
    it('should answer 401 without an Authorization header', async () => {
      const res = await storeViews('');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });

    for (const header of [
      'Bearer',
      'Bearer ',
      'Basic abcdefghijklmnopqrstuvwxyz012345',
      'Bearer short',
      'Bearer ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
      'abcdefghijklmnopqrstuvwxyz012345',
    ]) {
      it(`should answer 401 for the malformed header "${header}"`, async () => {
        const res = await storeViews('', header);
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal(DENIED);
      });
    }

    it('should answer 401 for a well-formed unknown token', async () => {
      const res = await storeViews('', 'Bearer abcdefghijklmnopqrstuvwxyz012345');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });

    it('should answer 401 at once after the token is revoked', async () => {
      const token = await t.integrationToken({ name: 'to-revoke', store: 'default' });
      expect((await storeViews('', `Bearer ${token}`)).status).to.equal(200);
      await t.cli('integration:token:revoke', '--name', 'to-revoke');
      const res = await storeViews('', `Bearer ${token}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });

    it('should answer 401 for an expired admin token', async () => {
      await t.cli('admin:user:create', '--username', 'expiring', '--password', 'secret123');
      const login = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'expiring', password: 'secret123' });
      expect(login.status).to.equal(200);
      expect((await storeViews('all/', `Bearer ${login.body}`)).status).to.equal(200);
      await t.app
        .knex('integration_token')
        .where({ kind: 'admin', name: 'expiring' })
        .update({ expires_at: '2000-01-01 00:00:00' });
      const res = await storeViews('all/', `Bearer ${login.body}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });

    it('should accept the scheme word in any case', async () => {
      const token = await t.integrationToken({ store: 'default' });
      expect((await storeViews('', `bEaReR ${token}`)).status).to.equal(200);
    });
  });

  describe('when a token is bound to a store', () => {
    let alphaToken: string;
    before(async () => {
      alphaToken = await t.integrationToken({ name: 'alpha-bound', store: 'alpha' });
    });

    it('should work under its own store and list only that store', async () => {
      const res = await storeViews('alpha/', `Bearer ${alphaToken}`);
      expect(res.status).to.equal(200);
      expect(res.body.map((s: { code: string }) => s.code)).to.deep.equal(['alpha']);
    });

    it('should answer 401 under another store, under all, and under /rest/V1 (default is another store), saying the token is bound to another store', async () => {
      for (const [scope, storeCode] of [
        ['beta/', 'beta'],
        ['all/', 'admin'],
        ['default/', 'default'],
        ['', 'default'],
      ] as const) {
        const res = await storeViews(scope, `Bearer ${alphaToken}`);
        expect(res.status, scope).to.equal(401);
        expect(res.body, scope).to.deep.equal({
          message:
            'The token is bound to another store and cannot be used with the store "%storeCode". Use the URL of its own store.',
          parameters: { storeCode },
        });
      }
    });

    it('should work under /rest/V1 when bound to the default store', async () => {
      const token = await t.integrationToken({ store: 'default' });
      expect((await storeViews('', `Bearer ${token}`)).status).to.equal(200);
      expect((await storeViews('default/', `Bearer ${token}`)).status).to.equal(200);
    });
  });

  describe('when a token is limited to resources', () => {
    it('should answer 401 on a route whose resource it lacks', async () => {
      const token = await t.integrationToken({ allStores: true, resources: ['Dispensary_Catalog::products'] });
      const res = await storeViews('all/', `Bearer ${token}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });

    it('should pass on a route whose resource it holds', async () => {
      const token = await t.integrationToken({ allStores: true, resources: ['Dispensary_Store::stores'] });
      expect((await storeViews('all/', `Bearer ${token}`)).status).to.equal(200);
    });

    it('should pass when it holds a parent resource of the route in the acl.xml tree', async () => {
      const token = await t.integrationToken({ allStores: true, resources: ['Magento_Backend::admin'] });
      expect((await storeViews('all/', `Bearer ${token}`)).status).to.equal(200);
    });
  });

  describe('when an admin asks for a token', () => {
    before(async () => {
      const created = await t.cli('admin:user:create', '--username', 'admin', '--password', 'admin1234');
      expect(created.code).to.equal(0);
    });

    it('should answer a bare JSON string valid for every store for 4 hours', async () => {
      const res = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'admin', password: 'admin1234' });
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('application/json');
      expect(res.text).to.match(/^"[a-z0-9]{32}"$/);
      for (const scope of ['all/', 'alpha/', 'beta/', '']) {
        expect((await storeViews(scope, `Bearer ${res.body}`)).status, scope).to.equal(200);
      }
      const row = await t.app
        .knex('integration_token')
        .where({ kind: 'admin', name: 'admin' })
        .orderBy('token_id', 'desc')
        .first();
      const lifetime = Date.parse(`${row.expires_at}Z`) - Date.parse(`${row.created_at}Z`);
      expect(lifetime).to.equal(4 * 3600 * 1000);
    });

    it('should answer the same 401 for a wrong password and for an unknown user', async () => {
      const wrong = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'admin', password: 'nope12345' });
      const unknown = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'ghost', password: 'nope12345' });
      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.body).to.deep.equal(unknown.body);
      expect(wrong.body.message).to.match(/sign-in was incorrect/);
    });

    it('should answer 400 when username or password is missing', async () => {
      const res = await t.request().post('/rest/V1/integration/admin/token').send({ username: 'admin' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: '"%fieldName" is required. Enter and try again.',
        parameters: { fieldName: 'password' },
      });
    });

    it('should refuse weak passwords and duplicate users on the CLI', async () => {
      expect((await t.cli('admin:user:create', '--username', 'weak', '--password', 'short1')).code).to.equal(1);
      expect((await t.cli('admin:user:create', '--username', 'weak', '--password', 'lettersonly')).code).to.equal(1);
      expect((await t.cli('admin:user:create', '--username', 'admin', '--password', 'another123')).code).to.equal(1);
    });
  });
});
