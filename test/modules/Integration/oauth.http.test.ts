import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { TestApp } from '../../support/testApp.js';
import { oauthHeader, type Credentials, type SignOptions } from './support/oauthClient.js';

const DENIED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Dispensary_Store::stores' },
};

const CREDENTIAL = /^[a-z0-9]{32}$/;

describe('Integration: OAuth 1.0a integrations', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  let all: Credentials;

  /** Creates an integration through the CLI, as an operator would, and answers its --json credentials. */
  const createIntegration = async (name: string, ...scope: string[]): Promise<Credentials> => {
    const result = await t.cli(
      'integration:create',
      '--name',
      name,
      ...(scope.length ? scope : ['--all-stores']),
      '--json',
    );
    expect(result.code, result.err.join('\n')).to.equal(0);
    return JSON.parse(result.out.filter((l) => l !== '').pop()!) as Credentials;
  };

  /** A signed call to the real listening server (127.0.0.1 on a random, non-default port). */
  const signedFetch = async (
    credentials: Credentials,
    method: string,
    path: string,
    options: SignOptions & { body?: unknown; sendPath?: string } = {},
  ) => {
    const url = `${base}${path}`;
    const res = await fetch(`${base}${options.sendPath ?? path}`, {
      method,
      headers: {
        Authorization: oauthHeader(credentials, method, url, options),
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  before(async () => {
    t = await TestApp.start();
    await t.createStore('alpha');
    await t.createStore('beta');
    server = t.http.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    all = await createIntegration('all-stores-app');
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.stop();
  });

  describe('when the CLI creates an integration', () => {
    it('should print the four credentials as labelled lines, each 32 lower-case letters and digits', async () => {
      const result = await t.cli('integration:create', '--name', 'labelled', '--store', 'alpha');
      expect(result.code).to.equal(0);
      const lines = result.out.filter((l) => l !== '');
      expect(lines.map((l) => l.split(': ')[0])).to.deep.equal([
        'Consumer Key',
        'Consumer Secret',
        'Access Token',
        'Access Token Secret',
      ]);
      const values = lines.map((l) => l.split(': ')[1]);
      for (const value of values) expect(value).to.match(CREDENTIAL);
      expect(new Set(values).size).to.equal(4);
    });

    it('should print one JSON line with --json', async () => {
      const result = await t.cli('integration:create', '--name', 'as-json', '--all-stores', '--json');
      expect(result.code).to.equal(0);
      const lines = result.out.filter((l) => l !== '');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(
        /^\{"consumer_key": "[a-z0-9]{32}", "consumer_secret": "[a-z0-9]{32}", "access_token": "[a-z0-9]{32}", "access_token_secret": "[a-z0-9]{32}"\}$/,
      );
    });

    it('should refuse a name already active, both or neither scope option, an unknown store or resource, as integration:token:create does', async () => {
      expect((await t.cli('integration:create', '--name', 'as-json', '--all-stores')).code).to.equal(1);
      await t.integrationToken({ name: 'api-key-name', allStores: true });
      expect((await t.cli('integration:create', '--name', 'api-key-name', '--all-stores')).code).to.equal(1);
      expect((await t.cli('integration:create', '--name', 'n1')).code).to.equal(1);
      expect((await t.cli('integration:create', '--name', 'n2', '--store', 'alpha', '--all-stores')).code).to.equal(1);
      expect((await t.cli('integration:create', '--name', 'n3', '--store', 'nowhere')).code).to.equal(1);
      expect(
        (await t.cli('integration:create', '--name', 'n4', '--all-stores', '--resource', 'No_Such::thing')).code,
      ).to.equal(1);
    });

    it('should fail to delete a name that has no OAuth integration', async () => {
      expect((await t.cli('integration:delete', '--name', 'never-created')).code).to.equal(1);
      expect((await t.cli('integration:delete', '--name', 'api-key-name')).code).to.equal(1);
    });

    it('should keep nothing in the database that can sign: keys and tokens hashed, secrets encrypted', async () => {
      const credentials = await createIntegration('dump-check');
      expect((await signedFetch(credentials, 'GET', '/rest/all/V1/store/storeViews')).status).to.equal(200);
      const dump = JSON.stringify(
        await Promise.all(
          ['integration_token', 'oauth_consumer', 'oauth_token', 'oauth_nonce'].map((table) =>
            t.app.knex(table).select('*'),
          ),
        ),
      );
      for (const value of Object.values(credentials)) {
        for (const form of [value, Buffer.from(value).toString('hex'), Buffer.from(value).toString('base64')])
          expect(dump).not.to.contain(form);
      }
    });
  });

  describe('when a request is signed correctly', () => {
    for (const signatureMethod of ['HMAC-SHA256', 'HMAC-SHA1'] as const) {
      it(`should answer 200 with ${signatureMethod} on a non-default port`, async () => {
        const res = await signedFetch(all, 'GET', '/rest/all/V1/store/storeViews', { signatureMethod });
        expect(res.status).to.equal(200);
        expect((res.body as { code: string }[]).map((s) => s.code)).to.deep.equal([
          'admin',
          'default',
          'alpha',
          'beta',
        ]);
      });
    }

    it('should sign the query string: repeated and bracketed keys, searchCriteria, UTF-8 values', async () => {
      const query =
        'storeCodes[]=alpha&storeCodes[]=beta' +
        '&searchCriteria[filter_groups][0][filters][0][field]=name' +
        '&searchCriteria[filter_groups][0][filters][0][value]=Caf%C3%A9%20M%C3%BCnchen%20%E2%9C%93' +
        '&searchCriteria[pageSize]=20&id[]=a&id[]=b&note=%F0%9F%92%8A';
      for (const signatureMethod of ['HMAC-SHA256', 'HMAC-SHA1'] as const) {
        const res = await signedFetch(all, 'GET', `/rest/all/V1/store/storeConfigs?${query}`, { signatureMethod });
        expect(res.status, signatureMethod).to.equal(200);
        expect((res.body as { code: string }[]).map((s) => s.code)).to.deep.equal(['alpha', 'beta']);
      }
    });

    it('should refuse a query string changed after signing (the query is signed)', async () => {
      const res = await signedFetch(all, 'GET', '/rest/all/V1/store/storeConfigs?storeCodes[]=alpha', {
        sendPath: '/rest/all/V1/store/storeConfigs?storeCodes[]=beta',
      });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });

    it('should not sign a JSON body: the body may be anything the route accepts', async () => {
      const res = await signedFetch(all, 'POST', '/rest/alpha/V1/dispensary/patient', {
        body: { patient: { firstname: 'Zoë', lastname: 'Ångström', email: 'zoe@example.com' } },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ firstname: 'Zoë', lastname: 'Ångström' });
    });

    it('should bind a store-bound integration to its store, and limit it to its resources, as for API keys', async () => {
      const alpha = await createIntegration('alpha-only', '--store', 'alpha');
      expect((await signedFetch(alpha, 'GET', '/rest/alpha/V1/store/storeViews')).body).to.deep.equal([
        { id: 2, code: 'alpha', name: 'ALPHA', website_id: 1, store_group_id: 1, is_active: 1 },
      ]);
      for (const [scope, storeCode] of [
        ['beta', 'beta'],
        ['all', 'admin'],
        ['default', 'default'],
      ]) {
        const res = await signedFetch(alpha, 'GET', `/rest/${scope}/V1/store/storeViews`);
        expect(res.status, scope).to.equal(401);
        expect(res.body).to.deep.equal({
          message:
            'The token is bound to another store and cannot be used with the store "%storeCode". Use the URL of its own store.',
          parameters: { storeCode },
        });
      }
      const limited = await createIntegration(
        'catalog-only',
        '--all-stores',
        '--resource',
        'Dispensary_Catalog::products',
      );
      const res = await signedFetch(limited, 'GET', '/rest/all/V1/store/storeViews');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    });
  });

  describe('when a signed request is not acceptable', () => {
    const path = '/rest/all/V1/store/storeViews';
    const expectDenied = async (res: { status: number; body: unknown }) => {
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
    };

    it('should refuse a nonce the consumer already used, and accept it from another consumer', async () => {
      const nonce = randomBytes(16).toString('hex');
      expect((await signedFetch(all, 'GET', path, { nonce })).status).to.equal(200);
      await expectDenied(await signedFetch(all, 'GET', path, { nonce }));
      const other = await createIntegration('other-consumer');
      expect((await signedFetch(other, 'GET', path, { nonce })).status).to.equal(200);
    });

    it('should refuse a timestamp more than 600 s in the future, and accept one 540 s ahead', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expectDenied(await signedFetch(all, 'GET', path, { timestamp: now + 660 }));
      expect((await signedFetch(all, 'GET', path, { timestamp: now + 540 })).status).to.equal(200);
    });

    it('should refuse a timestamp older than the nonce window (120 minutes), and accept one an hour old', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expectDenied(await signedFetch(all, 'GET', path, { timestamp: now - 7200 - 60 }));
      expect((await signedFetch(all, 'GET', path, { timestamp: now - 3600 })).status).to.equal(200);
    });

    it('should refuse an unknown consumer key and an unknown access token', async () => {
      await expectDenied(await signedFetch({ ...all, consumer_key: 'a'.repeat(32) }, 'GET', path));
      await expectDenied(await signedFetch({ ...all, access_token: 'b'.repeat(32) }, 'GET', path));
      // Each credential is someone's, but they do not belong together.
      const other = await createIntegration('mismatch');
      await expectDenied(
        await signedFetch(
          { ...all, access_token: other.access_token, access_token_secret: other.access_token_secret },
          'GET',
          path,
        ),
      );
    });

    it('should refuse a signature made with a wrong consumer secret or token secret', async () => {
      await expectDenied(await signedFetch(all, 'GET', path, { consumerSecret: 'x'.repeat(32) }));
      await expectDenied(await signedFetch(all, 'GET', path, { tokenSecret: 'x'.repeat(32) }));
    });

    it('should refuse a signature over another URL: another port, host, scheme or path', async () => {
      const port = Number(new URL(base).port);
      for (const signedFor of [
        `http://127.0.0.1:${port + 1}`,
        `http://localhost:${port}`,
        `https://127.0.0.1:${port}`,
        'http://127.0.0.1',
      ]) {
        const header = oauthHeader(all, 'GET', `${signedFor}${path}`);
        const res = await fetch(`${base}${path}`, { headers: { Authorization: header } });
        expect(res.status, signedFor).to.equal(401);
      }
      await expectDenied(await signedFetch(all, 'GET', '/rest/all/V1/store/websites', { sendPath: path }));
    });

    it('should refuse a signature made for another HTTP method', async () => {
      const header = oauthHeader(all, 'POST', `${base}${path}`);
      const res = await fetch(`${base}${path}`, { headers: { Authorization: header } });
      expect(res.status).to.equal(401);
    });

    it('should refuse an unsupported signature method or version, and a malformed header', async () => {
      const good = oauthHeader(all, 'GET', `${base}${path}`);
      const variants = [
        good.replace('oauth_signature_method="HMAC-SHA256"', 'oauth_signature_method="PLAINTEXT"'),
        good.replace('oauth_signature_method="HMAC-SHA256"', 'oauth_signature_method="RSA-SHA1"'),
        good.replace('oauth_version="1.0"', 'oauth_version="2.0"'),
        good.replace(/oauth_nonce="[^"]*", /, ''),
        good.replace(/, oauth_signature="[^"]*"/, ''),
        `${good}, oauth_nonce="again"`,
        'OAuth garbage',
        'OAuth ',
      ];
      for (const header of variants) {
        const res = await fetch(`${base}${path}`, { headers: { Authorization: header } });
        expect(res.status, header).to.equal(401);
        expect(await res.json()).to.deep.equal(DENIED);
      }
      // The library's PLAINTEXT signature (consumer secret & token secret in clear) is refused too.
      const OAuth = (await import('oauth-1.0a')).default;
      const plain = new OAuth({
        consumer: { key: all.consumer_key, secret: all.consumer_secret },
        signature_method: 'PLAINTEXT',
      });
      const header = plain.toHeader(
        plain.authorize(
          { url: `${base}${path}`, method: 'GET' },
          { key: all.access_token, secret: all.access_token_secret },
        ),
      ).Authorization;
      expect((await fetch(`${base}${path}`, { headers: { Authorization: header } })).status).to.equal(401);
    });

    it('should refuse every request at once after integration:delete', async () => {
      const doomed = await createIntegration('doomed');
      expect((await signedFetch(doomed, 'GET', path)).status).to.equal(200);
      const result = await t.cli('integration:delete', '--name', 'doomed');
      expect(result.code).to.equal(0);
      expect(result.out.join('\n')).to.contain('doomed');
      await expectDenied(await signedFetch(doomed, 'GET', path));
      const left = await Promise.all(
        ['oauth_consumer', 'oauth_token'].map((table) => t.app.knex(table).count({ n: '*' }).first()),
      );
      const integrations = Number(
        (await t.app.knex('integration_token').where({ kind: 'oauth' }).count({ n: '*' }).first())!.n,
      );
      expect(left.map((row) => Number(row!.n))).to.deep.equal([integrations, integrations]);
      // The name is free again.
      expect((await createIntegration('doomed')).consumer_key).to.match(CREDENTIAL);
    });
  });

  describe('when nonces age', () => {
    it("should purge a consumer's nonces older than the window, keeping the newer ones", async () => {
      const credentials = await createIntegration('purged');
      const keyHash = (await t.app.knex('oauth_consumer').where({ name: 'purged' }).first('consumer_id')) as {
        consumer_id: number;
      };
      const now = Math.floor(Date.now() / 1000);
      await t.app.knex('oauth_nonce').insert([
        { consumer_id: keyHash.consumer_id, nonce_hash: 'a'.repeat(64), timestamp: now - 7300 },
        { consumer_id: keyHash.consumer_id, nonce_hash: 'b'.repeat(64), timestamp: now - 100 },
      ]);
      expect((await signedFetch(credentials, 'GET', '/rest/all/V1/store/storeViews')).status).to.equal(200);
      const rows = (await t.app
        .knex('oauth_nonce')
        .where({ consumer_id: keyHash.consumer_id })
        .select('nonce_hash')) as { nonce_hash: string }[];
      const hashes = rows.map((r) => r.nonce_hash);
      expect(hashes).not.to.include('a'.repeat(64));
      expect(hashes).to.include('b'.repeat(64));
      expect(hashes).to.have.length(2);
    });
  });

  describe('when the access token is sent alone as a Bearer token', () => {
    it('should refuse it (Magento 2.4.4+), while API keys keep working', async () => {
      const res = await request(t.http)
        .get('/rest/all/V1/store/storeViews')
        .set('Authorization', `Bearer ${all.access_token}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(DENIED);
      const apiKey = await t.integrationToken({ allStores: true });
      expect(
        (await request(t.http).get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${apiKey}`)).status,
      ).to.equal(200);
    });

    it('should accept it with OAUTH_ACCESS_TOKEN_AS_BEARER=1, with the same binding', async () => {
      const bearer = await TestApp.start({ oauthAccessTokenAsBearer: true });
      try {
        await bearer.createStore('alpha');
        const result = await bearer.cli('integration:create', '--name', 'bearer-ok', '--store', 'alpha', '--json');
        const credentials = JSON.parse(result.out.filter((l) => l !== '').pop()!) as Credentials;
        const ok = await request(bearer.http)
          .get('/rest/alpha/V1/store/storeViews')
          .set('Authorization', `Bearer ${credentials.access_token}`);
        expect(ok.status).to.equal(200);
        const outside = await request(bearer.http)
          .get('/rest/default/V1/store/storeViews')
          .set('Authorization', `Bearer ${credentials.access_token}`);
        expect(outside.status).to.equal(401);
        await bearer.cli('integration:delete', '--name', 'bearer-ok');
        const deleted = await request(bearer.http)
          .get('/rest/alpha/V1/store/storeViews')
          .set('Authorization', `Bearer ${credentials.access_token}`);
        expect(deleted.status).to.equal(401);
      } finally {
        await bearer.stop();
      }
    });
  });
});
