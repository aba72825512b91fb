import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { UrlPolicy } from './UrlPolicy.js';
import type { SendResult } from '../Api/WebhookTransportInterface.js';

export interface SendRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** Largest answer read; a longer one is a failure (garbage). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Name resolution that refuses the cloud metadata address, whatever name led to it. */
const safeLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as LookupAddress[];
    if (list.some((entry) => UrlPolicy.isMetadataAddress(entry.address))) {
      return callback(
        Object.assign(new Error(`${hostname} resolves to a cloud metadata address`), { code: 'EMETADATA' }),
        '',
        0,
      );
    }
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/**
 * One HTTP call of a hook or an event delivery, with node's own client: no redirect is followed
 * (a 3xx is an answer like any other non-2xx), the whole exchange is bounded by `timeoutMs`, and
 * no connection is kept (a receiver that hangs holds nothing of ours once the time is up).
 */
export function send(request: SendRequest): Promise<SendResult> {
  return new Promise((resolve) => {
    const client = request.url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: SendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let req: http.ClientRequest;
    try {
      req = client.request(
        request.url,
        {
          method: request.method,
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body), connection: 'close' },
          lookup: safeLookup,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) {
              req.destroy();
              finish({ kind: 'error', reason: 'answer too large' });
            } else chunks.push(chunk);
          });
          res.on('end', () =>
            finish({
              kind: 'answer',
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ...(typeof res.headers['retry-after'] === 'string' ? { retryAfter: res.headers['retry-after'] } : {}),
            }),
          );
          res.on('error', (error) => finish({ kind: 'error', reason: error.message }));
        },
      );
    } catch (error) {
      // A header node's http refuses (refused at subscription; one stored before fails the call, not the request).
      resolve({ kind: 'error', reason: (error as NodeJS.ErrnoException).code ?? 'invalid request' });
      return;
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      req.destroy();
    }, request.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'error', reason: error.code ?? error.message }));
    req.end(request.body);
  });
}
