import { createHash, timingSafeEqual } from 'node:crypto';
import oauthSign from 'oauth-sign';
import {
  AuthorizationException,
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  isUniqueViolation,
  type AuthorizationRequest,
  type Caller,
  type Logger,
} from '#framework';
import { Encryptor } from '../Encryptor.js';
import { TokenGrants, type TokenRow } from '../TokenGrants.js';
import { hashToken, sameHash, TOKEN_PATTERN } from '../tokens.js';
import { parseOAuthHeader } from './authorizationHeader.js';
import { baseStringUri, queryParameters } from './signatureBase.js';

/** Magento's Nonce\Generator::TIME_DEVIATION: a timestamp at most this far in the future. */
export const TIME_DEVIATION_SECONDS = 600;
const SIGNATURE_METHODS = new Set(['HMAC-SHA1', 'HMAC-SHA256']);
const REQUIRED = [
  'oauth_consumer_key',
  'oauth_token',
  'oauth_signature_method',
  'oauth_timestamp',
  'oauth_nonce',
  'oauth_signature',
];
const PURGE_EVERY_MS = 60_000;

interface IntegrationRow extends TokenRow {
  consumer_id: number;
  consumer_secret: string;
  token_secret: string;
}

/** Associated data of each ciphertext: a secret decrypts only on the row it was written for. */
export const consumerSecretContext = (keyHash: string) => `oauth_consumer:${keyHash}`;
export const tokenSecretContext = (tokenHash: string) => `oauth_token:${tokenHash}`;

/**
 * Checks a request signed per RFC 5849 in the Authorization header and answers the integration's
 * caller, or throws the usual 401 (the caller is a guest): a malformed header, an unsupported
 * signature method or version, a timestamp more than 600 s ahead or older than the nonce window,
 * an unknown consumer or token, a bad signature, a nonce the consumer already used. The base
 * string and HMAC come from `oauth-sign`; the signatures are compared in constant time. Nonces are
 * recorded only for correctly signed requests, and purged once older than the window.
 */
@injectable()
export class OauthRequestVerifier {
  private readonly lastPurge = new Map<number, number>();

  /** nonceWindowSeconds: how long nonces are kept, and so the oldest timestamp accepted; Magento keeps them 120 minutes. */
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\TokenGrants') private readonly grants: TokenGrants,
    @inject('Dispensary\\Integration\\Model\\Encryptor') private readonly encryptor: Encryptor,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
    private readonly nonceWindowSeconds = 7200,
  ) {}

  async verify(header: string, request: AuthorizationRequest): Promise<Caller> {
    const denied = () => AuthorizationException.forResources(request.resources);
    const params = parseOAuthHeader(header);
    if (!params || !request.http || REQUIRED.some((name) => !params.get(name))) throw denied();
    const consumerKey = params.get('oauth_consumer_key')!;
    const accessToken = params.get('oauth_token')!;
    const method = params.get('oauth_signature_method')!;
    const version = params.get('oauth_version');
    const nonce = params.get('oauth_nonce')!;
    const timestampText = params.get('oauth_timestamp')!;
    if (!SIGNATURE_METHODS.has(method) || (version !== undefined && version !== '1.0')) throw denied();
    if (
      !TOKEN_PATTERN.test(consumerKey) ||
      !TOKEN_PATTERN.test(accessToken) ||
      nonce.length > 255 ||
      !/^\d{1,12}$/.test(timestampText)
    )
      throw denied();
    const timestamp = Number(timestampText);
    const now = Math.floor(Date.now() / 1000);
    if (timestamp > now + TIME_DEVIATION_SECONDS || timestamp < now - Number(this.nonceWindowSeconds)) throw denied();
    const baseUri = baseStringUri(request.http);
    if (!baseUri) throw denied();

    const keyHash = hashToken(consumerKey);
    const tokenHash = hashToken(accessToken);
    const row = (await this.connection
      .get()('oauth_consumer as c')
      .join('oauth_token as o', 'o.consumer_id', 'c.consumer_id')
      .join('integration_token as t', 't.token_id', 'o.token_id')
      .where('c.key_hash', keyHash)
      .andWhere('t.token_hash', tokenHash)
      .andWhere('t.kind', 'oauth')
      .first('t.*', 'c.consumer_id', 'c.secret as consumer_secret', 'o.secret as token_secret')) as
      IntegrationRow | undefined;
    if (!row || !sameHash(row.token_hash, tokenHash)) throw denied();

    let consumerSecret: string;
    let tokenSecret: string;
    try {
      consumerSecret = this.encryptor.decrypt(row.consumer_secret, consumerSecretContext(keyHash));
      tokenSecret = this.encryptor.decrypt(row.token_secret, tokenSecretContext(tokenHash));
    } catch (error) {
      // The key changed or a row was altered: every request of this integration fails until it is recreated.
      this.logger.error(
        { err: error, integration: row.name },
        'OAuth secrets of an integration do not decrypt with the crypt key',
      );
      throw denied();
    }

    const signed: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    const add = (name: string, value: string) => (signed[name] ??= []).push(value);
    for (const [name, value] of params) if (name !== 'oauth_signature' && name !== 'realm') add(name, value);
    for (const [name, value] of queryParameters(request.http.rawQuery)) add(name, value);
    const expected = oauthSign.sign(method, request.http.method, baseUri, signed, consumerSecret, tokenSecret);
    if (!sameSignature(expected, params.get('oauth_signature')!)) throw denied();

    await this.useNonce(row.consumer_id, nonce, timestamp, now, denied);
    return this.grants.grant(row, request);
  }

  /** Records the nonce; one the consumer used before is a replay. */
  private async useNonce(
    consumerId: number,
    nonce: string,
    timestamp: number,
    now: number,
    denied: () => Error,
  ): Promise<void> {
    const db = this.connection.get();
    const nonceHash = createHash('sha256').update(nonce).digest('hex');
    try {
      await db('oauth_nonce').insert({ consumer_id: consumerId, nonce_hash: nonceHash, timestamp });
    } catch (error) {
      if (isUniqueViolation(error)) throw denied();
      throw error;
    }
    // Purge this consumer's expired nonces on its first request in this process, then at most once a minute.
    const last = this.lastPurge.get(consumerId);
    if (last === undefined || Date.now() - last >= PURGE_EVERY_MS) {
      this.lastPurge.set(consumerId, Date.now());
      await db('oauth_nonce')
        .where('consumer_id', consumerId)
        .andWhere('timestamp', '<', now - Number(this.nonceWindowSeconds))
        .delete();
    }
  }
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Compare equal lengths only; a length mismatch is refused after a comparison of the same cost.
  return a.length === b.length ? timingSafeEqual(a, b) : (timingSafeEqual(a, a), false);
}
