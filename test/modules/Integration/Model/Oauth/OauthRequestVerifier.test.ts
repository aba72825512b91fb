/**
 * OauthRequestVerifier on a real database, with requests signed by an independent client
 * (oauth-1.0a). Cases ported from Magento 2.4's
 * app/code/Magento/Integration/Test/Unit/Oauth/OauthTest.php name their Magento test method;
 * Magento's mocks are replaced by real integrations made with `integration:create`.
 */
import { expect } from 'chai';
import {
  AuthorizationException,
  FrameworkServices,
  type AuthorizationRequest,
  type ConnectionProvider,
  type Logger,
  type Store,
} from '../../../../../app/framework/index.js';
import type { Encryptor } from '../../../../../modules/Dispensary/Integration/Model/Encryptor.js';
import {
  OauthRequestVerifier,
  TIME_DEVIATION_SECONDS,
} from '../../../../../modules/Dispensary/Integration/Model/Oauth/OauthRequestVerifier.js';
import type { TokenGrants } from '../../../../../modules/Dispensary/Integration/Model/TokenGrants.js';
import { OTHER_STORE } from '../../../../../modules/Dispensary/Integration/Model/TokenGrants.js';
import { hashToken } from '../../../../../modules/Dispensary/Integration/Model/tokens.js';
import { StoreRepositoryInterface } from '../../../../../modules/Dispensary/Store/Api/StoreRepositoryInterface.js';
import { TestApp } from '../../../../support/testApp.js';
import { oauthHeader, type Credentials, type SignOptions } from '../../support/oauthClient.js';
import { captureLogger } from '../../support.js';

const HOST = 'shop.test:8080';
const PATH = '/rest/V1/store/websites';
const DENIED = "The consumer isn't authorized to access %resources.";
const seconds = () => Math.floor(Date.now() / 1000);
let nonceCounter = 0;
const freshNonce = () => `nonce-${process.pid}-${++nonceCounter}`;

describe('Integration: OauthRequestVerifier', () => {
  let t: TestApp;
  let log: ReturnType<typeof captureLogger>;
  let verifier: OauthRequestVerifier;
  let main: Store;
  let alpha: Store;
  let all: Credentials;
  let other: Credentials;

  const createIntegration = async (name: string, ...scope: string[]): Promise<Credentials> => {
    const result = await t.cli('integration:create', '--name', name, ...scope, '--json');
    expect(result.code, result.err.join('\n')).to.equal(0);
    return JSON.parse(result.out.filter((l) => l !== '').pop()!) as Credentials;
  };

  before(async () => {
    log = captureLogger();
    t = await TestApp.start({ logger: log.logger });
    await t.createStore('alpha');
    verifier = t.app.get<OauthRequestVerifier>('Dispensary\\Integration\\Model\\Oauth\\OauthRequestVerifier');
    const stores = t.app.get<StoreRepositoryInterface>(StoreRepositoryInterface);
    main = (await stores.getStoreByCode('default'))!;
    alpha = (await stores.getStoreByCode('alpha'))!;
    all = await createIntegration('verifier-all', '--all-stores');
    other = await createIntegration('verifier-other', '--all-stores');
  });
  after(async () => t?.stop());

  /** The request the web API would hand over for `method url` (query string included). */
  const requestFor = (authorization: string, method = 'GET', rawQuery = '', store = main): AuthorizationRequest => ({
    authorization,
    resources: ['Dispensary_Store::stores'],
    store,
    defaultScope: true,
    http: { method, scheme: 'http', host: HOST, path: PATH, rawQuery, headers: { authorization } },
  });
  const sign = (credentials: Credentials, options: SignOptions & { method?: string; query?: string } = {}) =>
    oauthHeader(
      credentials,
      options.method ?? 'GET',
      `http://${HOST}${PATH}${options.query ? `?${options.query}` : ''}`,
      {
        nonce: freshNonce(),
        ...options,
      },
    );
  /** A header with one parameter's value replaced (after signing: checks before the signature's come first). */
  const withParam = (header: string, name: string, value: string) => {
    const replaced = header.replace(new RegExp(`${name}="[^"]*"`), `${name}="${encodeURIComponent(value)}"`);
    return replaced === header && !header.includes(`${name}="${encodeURIComponent(value)}"`)
      ? `${header}, ${name}="${encodeURIComponent(value)}"`
      : replaced;
  };
  const refused = async (promise: Promise<unknown>): Promise<AuthorizationException> => {
    const error = await promise.then(
      () => expect.fail('expected the request to be refused'),
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AuthorizationException);
    return error as AuthorizationException;
  };
  const expectDenied = async (promise: Promise<unknown>) => {
    const error = await refused(promise);
    expect([error.phrase, error.parameters]).to.deep.equal([DENIED, { resources: 'Dispensary_Store::stores' }]);
  };

  describe('a correctly signed request', () => {
    it('testValidateAccessTokenRequest: should answer the integration, HMAC-SHA256 and -SHA1', async () => {
      for (const signatureMethod of ['HMAC-SHA256', 'HMAC-SHA1'] as const) {
        const caller = await verifier.verify(sign(all, { signatureMethod }), requestFor(sign(all)));
        expect(caller).to.include({ type: 'integration', name: 'verifier-all', allStores: true });
      }
    });

    it('should sign the query parameters and the method (RFC 5849 §3.4.1)', async () => {
      const query = 'c=5&b=x';
      const header = sign(all, { method: 'POST', query });
      expect((await verifier.verify(header, requestFor(header, 'POST', query))).name).to.equal('verifier-all');
      const replay = sign(all, { method: 'POST', query });
      await expectDenied(verifier.verify(replay, requestFor(replay, 'POST', 'c=6&b=x')));
      const asGet = sign(all, { method: 'POST', query });
      await expectDenied(verifier.verify(asGet, requestFor(asGet, 'GET', query)));
    });

    it('should keep a store-bound integration to its store (TokenGrants decides after the signature)', async () => {
      const bound = await createIntegration('verifier-alpha', '--store', 'alpha');
      expect((await verifier.verify(sign(bound), requestFor('x', 'GET', '', alpha))).allStores).to.equal(false);
      const error = await refused(verifier.verify(sign(bound), requestFor('x', 'GET', '', main)));
      expect(error.phrase).to.equal(OTHER_STORE);
    });
  });

  describe('the header', () => {
    it('testGetAccessTokenParameterAbsent: should refuse a header missing any required parameter', async () => {
      for (const name of [
        'oauth_consumer_key',
        'oauth_token',
        'oauth_signature_method',
        'oauth_timestamp',
        'oauth_nonce',
        'oauth_signature',
      ]) {
        const header = sign(all).replace(new RegExp(`,?\\s*${name}="[^"]*"`), '');
        expect(header, name).to.not.contain(`${name}=`);
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it('should refuse a header not OAuth, malformed or repeating a parameter; no HTTP side', async () => {
      const good = sign(all);
      for (const header of [
        'Bearer abc',
        'OAuth',
        'OAuth oauth_consumer_key="unterminated',
        `${good}, oauth_nonce="again"`,
      ]) {
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
      const { http: _http, ...withoutHttp } = requestFor(good);
      await expectDenied(verifier.verify(good, withoutHttp));
    });

    it('testGet{Request,Access}TokenVersionRejected: should refuse oauth_version but 1.0', async () => {
      for (const version of ['2.0', '0.0', '']) {
        const header = withParam(sign(all), 'oauth_version', version);
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it('testGetRequestTokenSignatureMethodRejected: only HMAC-SHA1 and HMAC-SHA256', async () => {
      for (const method of ['wrong_method', 'PLAINTEXT', 'RSA-SHA1', 'hmac-sha256']) {
        const header = withParam(sign(all), 'oauth_signature_method', method);
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it('should refuse a request without a usable Host (no base string URI)', async () => {
      const header = sign(all);
      const request = requestFor(header);
      await expectDenied(verifier.verify(header, { ...request, http: { ...request.http!, host: undefined } }));
    });
  });

  describe('consumer and token', () => {
    it('testGetRequestTokenConsumerKeyRejected: should refuse a consumer key of the wrong length', async () => {
      const header = sign({ ...all, consumer_key: 'wrong_key_length' });
      await expectDenied(verifier.verify(header, requestFor(header)));
    });

    it('testGetRequestTokenConsumerKeyNotFound: should refuse an unknown consumer key', async () => {
      const header = sign({ ...all, consumer_key: 'z'.repeat(32) });
      await expectDenied(verifier.verify(header, requestFor(header)));
    });

    it('testGetAccessTokenTokenRejected: should refuse an unknown access token', async () => {
      for (const token of ['invalid_token', '0'.repeat(32)]) {
        const header = sign({ ...all, access_token: token });
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it("testValidateAccessTokenRequestTokenRejected: another consumer's token, rightly signed", async () => {
      const mixed = { ...all, access_token: other.access_token, access_token_secret: other.access_token_secret };
      const header = sign(mixed);
      await expectDenied(verifier.verify(header, requestFor(header)));
    });

    it('testValidateAccessTokenRequestTokenRevoked: should refuse a revoked token', async () => {
      const revoked = await createIntegration('verifier-revoked', '--all-stores');
      expect((await verifier.verify(sign(revoked), requestFor('x'))).name).to.equal('verifier-revoked');
      await t.app
        .knex('integration_token')
        .where({ token_hash: hashToken(revoked.access_token) })
        .update({ revoked_at: '2026-01-01 00:00:00' });
      await expectDenied(verifier.verify(sign(revoked), requestFor('x')));
    });

    it('should refuse, and log, secrets that do not decrypt on their row (ciphertext moved)', async () => {
      const moved = await createIntegration('verifier-moved', '--all-stores');
      const donor = (await t.app
        .knex('oauth_consumer')
        .where({ key_hash: hashToken(other.consumer_key) })
        .first('secret')) as { secret: string };
      await t.app
        .knex('oauth_consumer')
        .where({ key_hash: hashToken(moved.consumer_key) })
        .update({ secret: donor.secret });
      // Signed with the secret now stored (the other consumer's): the ciphertext is bound to the other row.
      const header = sign(moved, { consumerSecret: other.consumer_secret });
      const before = log.lines.length;
      await expectDenied(verifier.verify(header, requestFor(header)));
      const logged = log.lines.slice(before).filter((l) => l.level === 50);
      expect(logged.map((l) => [l.msg, l.integration])).to.deep.equal([
        ['OAuth secrets of an integration do not decrypt with the crypt key', 'verifier-moved'],
      ]);
    });
  });

  describe('the signature', () => {
    it('testGetRequestTokenInvalidSignature: wrong consumer or token secret, made-up signature', async () => {
      for (const header of [
        sign(all, { consumerSecret: 'x'.repeat(32) }),
        sign(all, { tokenSecret: 'x'.repeat(32) }),
        withParam(sign(all), 'oauth_signature', 'invalid_signature'),
        withParam(sign(all), 'oauth_signature', ''),
      ]) {
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it('should refuse a signature for another host, port or path', async () => {
      const header = sign(all);
      const request = requestFor(header);
      for (const http of [
        { host: 'evil.test:8080' },
        { host: 'shop.test:8081' },
        { path: '/rest/V1/store/storeViews' },
      ]) {
        await expectDenied(verifier.verify(header, { ...request, http: { ...request.http!, ...http } }));
      }
    });

    it('should compare the host in any case and without the default port (RFC 5849 §3.4.1.2)', async () => {
      const signed = oauthHeader(all, 'GET', `http://shop.test${PATH}`, { nonce: freshNonce() });
      const request = requestFor(signed);
      expect(
        (await verifier.verify(signed, { ...request, http: { ...request.http!, host: 'SHOP.test:80' } })).name,
      ).to.equal('verifier-all');
    });
  });

  describe('timestamp and nonce', () => {
    it('testGetRequestTokenOauthTimestampRefused: 0, and a day beyond TIME_DEVIATION', async () => {
      for (const timestamp of [0, seconds() + TIME_DEVIATION_SECONDS + 86400]) {
        const header = sign(all, { timestamp });
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it('should accept a timestamp up to 600 s ahead, and refuse one a minute beyond it or not a number', async () => {
      const ahead = sign(all, { timestamp: seconds() + TIME_DEVIATION_SECONDS - 5 });
      expect((await verifier.verify(ahead, requestFor(ahead))).name).to.equal('verifier-all');
      const beyond = sign(all, { timestamp: seconds() + TIME_DEVIATION_SECONDS + 60 });
      await expectDenied(verifier.verify(beyond, requestFor(beyond)));
      for (const text of ['1e9', '-5', '12.5', '1234567890123']) {
        const header = withParam(sign(all), 'oauth_timestamp', text);
        await expectDenied(verifier.verify(header, requestFor(header)));
      }
    });

    it('testGetRequestTokenNonceAlreadyUsed: a nonce used before; another consumer may use it', async () => {
      const nonce = freshNonce();
      const first = sign(all, { nonce });
      expect((await verifier.verify(first, requestFor(first))).name).to.equal('verifier-all');
      const replay = sign(all, { nonce });
      await expectDenied(verifier.verify(replay, requestFor(replay)));
      const elsewhere = sign(other, { nonce });
      expect((await verifier.verify(elsewhere, requestFor(elsewhere))).name).to.equal('verifier-other');
    });

    it('should record a nonce only for a correctly signed request', async () => {
      const nonce = freshNonce();
      const forged = sign(all, { nonce, consumerSecret: 'x'.repeat(32) });
      await expectDenied(verifier.verify(forged, requestFor(forged)));
      const genuine = sign(all, { nonce });
      expect((await verifier.verify(genuine, requestFor(genuine))).name).to.equal('verifier-all');
    });

    it("should refuse a timestamp older than the nonce window, and purge the consumer's expired nonces", async () => {
      const connection = t.app.get<ConnectionProvider>(FrameworkServices.ConnectionProvider);
      const grants = t.app.get<TokenGrants>('Dispensary\\Integration\\Model\\TokenGrants');
      const encryptor = t.app.get<Encryptor>('Dispensary\\Integration\\Model\\Encryptor');
      const short = new OauthRequestVerifier(
        connection,
        grants,
        encryptor,
        t.app.get<Logger>(FrameworkServices.Logger),
        60,
      );
      const owner = await createIntegration('verifier-window', '--all-stores');
      const { consumer_id: consumerId } = (await t.app
        .knex('oauth_consumer')
        .where({ key_hash: hashToken(owner.consumer_key) })
        .first('consumer_id')) as {
        consumer_id: number;
      };
      await t.app
        .knex('oauth_nonce')
        .insert({ consumer_id: consumerId, nonce_hash: 'f'.repeat(64), timestamp: seconds() - 3600 });
      const old = sign(owner, { timestamp: seconds() - 120 });
      await expectDenied(short.verify(old, requestFor(old)));
      const recent = sign(owner, { timestamp: seconds() - 30 });
      expect((await short.verify(recent, requestFor(recent))).name).to.equal('verifier-window');
      const left = (await t.app.knex('oauth_nonce').where({ consumer_id: consumerId }).select('timestamp')) as {
        timestamp: number;
      }[];
      expect(left.map((r) => Number(r.timestamp))).to.have.length(1);
      expect(Number(left[0]!.timestamp)).to.be.greaterThan(seconds() - 60);
    });
  });
});
