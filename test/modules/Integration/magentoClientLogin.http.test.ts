import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';
import { oauthHeader, type Credentials, type SignatureMethod } from './support/oauthClient.js';

/**
 * The npm client `magento-api-rest` as its README configures it ({url, consumerKey, consumerSecret,
 * accessToken, tokenSecret}), reproduced call for call: it builds `<url>/rest/V1/<endpoint>`, adds
 * `?searchCriteria=all` to a GET without parameters, signs every request with the `oauth-1.0a`
 * package in the Authorization header, and sends JSON bodies unsigned. Its login check is
 * `GET store/websites`.
 */
class MagentoApiRestClient {
  constructor(
    private readonly options: {
      url: string;
      consumerKey: string;
      consumerSecret: string;
      accessToken: string;
      tokenSecret: string;
      sha: 1 | 256;
    },
  ) {}

  get(endpoint: string): Promise<{ status: number; data: unknown }> {
    return this.request('GET', `${endpoint}?searchCriteria=all`);
  }

  post(endpoint: string, data: unknown): Promise<{ status: number; data: unknown }> {
    return this.request('POST', endpoint, data);
  }

  private async request(method: string, endpoint: string, body?: unknown): Promise<{ status: number; data: unknown }> {
    const url = `${this.options.url}/rest/V1/${endpoint}`;
    const credentials: Credentials = {
      consumer_key: this.options.consumerKey,
      consumer_secret: this.options.consumerSecret,
      access_token: this.options.accessToken,
      access_token_secret: this.options.tokenSecret,
    };
    const signatureMethod: SignatureMethod = this.options.sha === 256 ? 'HMAC-SHA256' : 'HMAC-SHA1';
    const res = await fetch(url, {
      method,
      headers: {
        Authorization: oauthHeader(credentials, method, url, { signatureMethod }),
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, data: await res.json() };
  }
}

describe('Integration: a Magento client library logs in with OAuth 1.0a', () => {
  let t: TestApp;
  let server: Server;
  let url: string;

  before(async () => {
    t = await TestApp.start();
    server = t.http.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.stop();
  });

  for (const sha of [1, 256] as const) {
    it(`should pass the login check (GET store/websites) and then call the dispensary routes (HMAC-SHA${sha})`, async () => {
      const created = await t.cli('integration:create', '--name', `client-sha${sha}`, '--store', 'default', '--json');
      const credentials = JSON.parse(created.out.filter((l) => l !== '').pop()!) as Credentials;
      const client = new MagentoApiRestClient({
        url,
        consumerKey: credentials.consumer_key,
        consumerSecret: credentials.consumer_secret,
        accessToken: credentials.access_token,
        tokenSecret: credentials.access_token_secret,
        sha,
      });
      const login = await client.get('store/websites');
      expect(login.status).to.equal(200);
      expect(login.data).to.deep.equal([{ id: 1, code: 'base', name: 'Main Website', default_group_id: 1 }]);
      const patient = await client.post('dispensary/patient', {
        patient: { firstname: 'Ada', lastname: 'Lovelace', email: `ada${sha}@example.com` },
      });
      expect(patient.status).to.equal(200);
      const id = (patient.data as { patient_id: number }).patient_id;
      const read = await client.get(`dispensary/patient/${id}`);
      expect(read.status).to.equal(200);
      expect(read.data).to.include({ patient_id: id, email: `ada${sha}@example.com` });
      const views = await client.get('store/storeViews');
      expect((views.data as { code: string }[]).map((s) => s.code)).to.deep.equal(['default']);
    });
  }

  it('should fail the login check with wrong credentials, as the library reports a failed login', async () => {
    const client = new MagentoApiRestClient({
      url,
      consumerKey: 'a'.repeat(32),
      consumerSecret: 'b'.repeat(32),
      accessToken: 'c'.repeat(32),
      tokenSecret: 'd'.repeat(32),
      sha: 256,
    });
    const login = await client.get('store/websites');
    expect(login.status).to.equal(401);
  });
});
