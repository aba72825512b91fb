import { inject, injectable } from '#framework';
import { signatureHeaders } from '../../OutOfProcessExtensibility/Api/Signature.js';
import type { SendResult, SignedRequest, WebhookTransportInterface } from '../Api/WebhookTransportInterface.js';
import { send } from './HttpSender.js';
import { UrlPolicy } from './UrlPolicy.js';

/**
 * One signed call (Standard Webhooks headers) to a URL the policy allows: what event delivery
 * (Dispensary_Eventing) uses, by name, so both modules call out the same way.
 */
@injectable()
export class WebhookTransport implements WebhookTransportInterface {
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
