import type { EventFormat } from '../Api/EventSubscriptionManagementInterface.js';

/** The `source` of CloudEvents this service sends (Adobe I/O: the event provider's `urn:uuid:...`). */
export const CLOUDEVENTS_SOURCE = 'urn:dispensary:eventing';

export interface EventFacts {
  /** The event's id: `webhook-id`, and CloudEvents' `id`. */
  readonly id: string;
  /** The subscription's name (`observer.<event>`, or its alias name). */
  readonly name: string;
  /** When it was recorded (ms since the epoch). */
  readonly time: number;
  /** The entity it concerns (`recommendation:<id>`), when there is one. */
  readonly subject?: string;
  readonly data: unknown;
}

/**
 * The body of an event in a subscription's format (docs/webhooks-and-events.md, "What the
 * destination receives"):
 * - `standardwebhooks`: `{type, timestamp, data}`, Standard Webhooks' recommended payload; the id
 *   is the `webhook-id` header.
 * - `cloudevents`: CloudEvents 1.0 structured mode (`application/cloudevents+json`), the shape
 *   Adobe I/O Events delivers: `specversion`, `id`, `source`, `type` (`com.adobe.commerce.<name>`,
 *   Adobe's type for Commerce events), `time`, `datacontenttype`, `subject`, `data`.
 */
export function envelope(format: EventFormat, facts: EventFacts): Record<string, unknown> {
  const time = new Date(facts.time).toISOString();
  if (format === 'cloudevents')
    return {
      specversion: '1.0',
      id: facts.id,
      source: CLOUDEVENTS_SOURCE,
      type: `com.adobe.commerce.${facts.name}`,
      time,
      datacontenttype: 'application/json',
      ...(facts.subject ? { subject: facts.subject } : {}),
      data: facts.data,
    };
  return { type: facts.name, timestamp: time, data: facts.data };
}

/** The content type an outbox row's payload is sent with (`legacy`: rows recorded before formats existed). */
export function contentTypeOf(format: string): string {
  return format === 'cloudevents' ? 'application/cloudevents+json' : 'application/json';
}
