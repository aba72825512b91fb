import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { TestApp } from '../../support/testApp.js';
import { freePort, ServerProcess } from '../../support/serverProcess.js';
import { oauthHeader, type Credentials } from './support/oauthClient.js';

const ROUTE = '/rest/all/V1/store/storeViews';

async function createIntegration(t: TestApp, name: string): Promise<Credentials> {
  const result = await t.cli('integration:create', '--name', name, '--all-stores', '--json');
  expect(result.code, result.err.join('\n')).to.equal(0);
  return JSON.parse(result.out.filter((l) => l !== '').pop()!) as Credentials;
}

describe('Integration: OAuth behind a proxy, the crypt key, several processes', () => {
  describe('when a proxy forwards the request', () => {
    // Signed for the public URL the client called, received on the internal address.
    const publicUrl = `https://shop.example.com${ROUTE}`;
    const forwarded = (t: TestApp, credentials: Credentials) =>
      request(t.http)
        .get(ROUTE)
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'shop.example.com')
        .set('Authorization', oauthHeader(credentials, 'GET', publicUrl));

    it('should ignore X-Forwarded-Proto and X-Forwarded-Host unless TRUST_PROXY says so', async () => {
      const t = await TestApp.start({ trustProxy: false });
      try {
        const res = await forwarded(t, await createIntegration(t, 'proxied'));
        expect(res.status).to.equal(401);
      } finally {
        await t.stop();
      }
    });

    it('should sign over the forwarded scheme and host when TRUST_PROXY trusts the proxy', async () => {
      const t = await TestApp.start({ trustProxy: 'loopback' });
      try {
        const credentials = await createIntegration(t, 'proxied');
        expect((await forwarded(t, credentials)).status).to.equal(200);
        // A signature over the internal URL no longer matches what the client is said to have called.
        const internal = await request(t.http)
          .get(ROUTE)
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'shop.example.com')
          .set('Authorization', oauthHeader(credentials, 'GET', `http://127.0.0.1${ROUTE}`));
        expect(internal.status).to.equal(401);
      } finally {
        await t.stop();
      }
    });

    it('should drop a default port from the base string (https on 443)', async () => {
      const t = await TestApp.start({ trustProxy: true });
      try {
        const credentials = await createIntegration(t, 'default-port');
        const res = await request(t.http)
          .get(ROUTE)
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'shop.example.com:443')
          .set('Authorization', oauthHeader(credentials, 'GET', publicUrl));
        expect(res.status).to.equal(200);
      } finally {
        await t.stop();
      }
    });
  });

  describe('when CRYPT_KEY is unset', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'dispensary-crypt-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('should create the key file on first start, mode 0600, 64 hex characters, and keep it', async () => {
      const cryptKeyFile = path.join(dir, 'var', 'crypt.key');
      const t = await TestApp.start({ cryptKey: null, cryptKeyFile });
      try {
        expect(statSync(cryptKeyFile).mode & 0o777).to.equal(0o600);
        const key = readFileSync(cryptKeyFile, 'utf8').trim();
        expect(key).to.match(/^[0-9a-f]{64}$/);
        expect((await t.cli('integration:create', '--name', 'with-file-key', '--all-stores')).code).to.equal(0);
        // The next start reads the same key.
        const again = await TestApp.start({ cryptKey: null, cryptKeyFile });
        await again.stop();
        expect(readFileSync(cryptKeyFile, 'utf8').trim()).to.equal(key);
      } finally {
        await t.stop();
      }
    });

    it('should refuse to start with a CRYPT_KEY that is not 64 hex characters', async () => {
      let failure: unknown;
      try {
        const t = await TestApp.start({ cryptKey: 'too-short' });
        await t.stop();
      } catch (error) {
        failure = error;
      }
      expect(String(failure)).to.contain('CRYPT_KEY must be 64 hex characters');
    });

    it('should fail the requests of an integration whose secrets were written under another key (the dump alone cannot sign)', async () => {
      const keyA = randomBytes(32).toString('hex');
      const t = await TestApp.start({ cryptKey: keyA });
      const other = await TestApp.start({ cryptKey: randomBytes(32).toString('hex') });
      try {
        const credentials = await createIntegration(t, 'moved');
        // Copy the rows to a deployment with another key, as a stolen dump would be restored.
        const ids = (await t.app.knex('integration_token').where({ name: 'moved' }).first()) as Record<string, unknown>;
        await other.app.knex('integration_token').insert(ids);
        await other.app
          .knex('oauth_consumer')
          .insert(await t.app.knex('oauth_consumer').where({ name: 'moved' }).select('*'));
        await other.app.knex('oauth_token').insert(await t.app.knex('oauth_token').select('*'));
        const server = other.http.listen(0, '127.0.0.1');
        await new Promise((resolve) => server.once('listening', resolve));
        try {
          const port = (server.address() as { port: number }).port;
          const res = await fetch(`http://127.0.0.1:${port}${ROUTE}`, {
            headers: { Authorization: oauthHeader(credentials, 'GET', `http://127.0.0.1:${port}${ROUTE}`) },
          });
          expect(res.status).to.equal(401);
        } finally {
          await new Promise((resolve) => server.close(resolve));
        }
      } finally {
        await other.stop();
        await t.stop();
      }
    });
  });

  describe('when two server processes share one database', function () {
    this.timeout(60_000);
    it('should refuse the integration in the other process at once after integration:delete', async () => {
      const cryptKey = randomBytes(32).toString('hex');
      const t = await TestApp.start({ cryptKey });
      const server = ServerProcess.spawn(t.databaseUrl, await freePort(), { CRYPT_KEY: cryptKey });
      try {
        await server.ready();
        const credentials = await createIntegration(t, 'shared');
        const call = async () =>
          (
            await fetch(`${server.url}${ROUTE}`, {
              headers: { Authorization: oauthHeader(credentials, 'GET', `${server.url}${ROUTE}`) },
            })
          ).status;
        expect(await call()).to.equal(200);
        expect(await call()).to.equal(200);
        expect((await t.cli('integration:delete', '--name', 'shared')).code).to.equal(0);
        expect(await call()).to.equal(401);
      } finally {
        await server.stop();
        await t.stop();
      }
    });
  });
});
