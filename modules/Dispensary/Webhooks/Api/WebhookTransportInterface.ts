/** How a call out ended: the receiver's answer, a timeout, or an error before any answer. */
export type SendResult =
  | {
      kind: 'answer';
      status: number;
      body: string;
      /** The answer's `Retry-After` header, when it has one (event delivery honours it on 429 and 503). */
      retryAfter?: string;
    }
  | { kind: 'timeout' }
  | { kind: 'error'; reason: string };

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
 * One signed call (Standard Webhooks headers) to a URL the policy allows (`refused`: it does not),
 * served by name as `Dispensary\Webhooks\Model\WebhookTransport`: what event delivery
 * (Dispensary_Eventing) sends with, so both modules call out the same way.
 */
export interface WebhookTransportInterface {
  post(request: SignedRequest): Promise<SendResult | { kind: 'refused'; reason: string }>;
}
