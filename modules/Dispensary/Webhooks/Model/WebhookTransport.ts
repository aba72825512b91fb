import { inject, injectable } from '#framework';
import { send, type SendResult } from './HttpSender.js';
import { signatureHeaders } from './Signature.js';
import { UrlPolicy } from './UrlPolicy.js';

export interface SignedRequest {
  readonly url: string;
  readonly body: string;
  /** `webhook-id`: stable across retries of the same message, so receivers can drop duplicates. */
  readonly id: string;
  readonly secret: string;
  readonly timeoutMs: number;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body's content type (default application/json; CloudEvents: application/cloudevents+json). */
  readonly contentType?: string;
}

/**
 * One signed call (Standard Webhooks headers) to a URL the policy allows: what event delivery
 * (Dispensary_Eventing) uses, by name, so both modules call out the same way.
 */
@injectable()
export class WebhookTransport {
  constructor(@inject('Dispensary\\Webhooks\\Model\\UrlPolicy') private readonly urls: UrlPolicy) {}

  async post(request: SignedRequest): Promise<SendResult | { kind: 'refused'; reason: string }> {
    let url: URL;
    try {
      url = this.urls.check(request.url);
    } catch (error) {
      return { kind: 'refused', reason: (error as Error).message };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    Object.assign(headers, {
      'content-type': request.contentType ?? 'application/json',
      'user-agent': 'Dispensary-Webhooks/1',
      ...signatureHeaders(request.secret, request.id, Math.floor(Date.now() / 1000), request.body),
    });
    return send({ url, method: request.method ?? 'POST', headers, body: request.body, timeoutMs: request.timeoutMs });
  }
}
