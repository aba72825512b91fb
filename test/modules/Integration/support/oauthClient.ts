/**
 * An OAuth 1.0a client built on the npm package `oauth-1.0a` (an independent signer: the tests
 * never compute a base string themselves), used as its README shows, the way Magento client
 * libraries such as `magento-api-rest` use it.
 */
import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';

export interface Credentials {
  consumer_key: string;
  consumer_secret: string;
  access_token: string;
  access_token_secret: string;
}

export type SignatureMethod = 'HMAC-SHA256' | 'HMAC-SHA1';

export interface SignOptions {
  signatureMethod?: SignatureMethod;
  /** Overrides the library's clock (seconds), for timestamp tests. */
  timestamp?: number;
  /** Overrides the library's random nonce, for replay tests. */
  nonce?: string;
  /** Sign with these secrets instead (a wrong secret). */
  consumerSecret?: string;
  tokenSecret?: string;
}

/** The Authorization header for `method url` (the query string is part of `url`, as the library takes it). */
export function oauthHeader(credentials: Credentials, method: string, url: string, options: SignOptions = {}): string {
  const signatureMethod = options.signatureMethod ?? 'HMAC-SHA256';
  const algorithm = signatureMethod === 'HMAC-SHA1' ? 'sha1' : 'sha256';
  const oauth = new OAuth({
    consumer: { key: credentials.consumer_key, secret: options.consumerSecret ?? credentials.consumer_secret },
    signature_method: signatureMethod,
    hash_function: (base, key) => createHmac(algorithm, key).update(base).digest('base64'),
  });
  if (options.timestamp !== undefined) oauth.getTimeStamp = () => options.timestamp!;
  if (options.nonce !== undefined) oauth.getNonce = () => options.nonce!;
  const token = { key: credentials.access_token, secret: options.tokenSecret ?? credentials.access_token_secret };
  return oauth.toHeader(oauth.authorize({ url, method }, token)).Authorization;
}
