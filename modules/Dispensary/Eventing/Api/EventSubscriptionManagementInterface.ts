import { defineContract, Joi } from '#framework';
import { payloadFieldsSchema, payloadRulesSchema } from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import type { PayloadField, PayloadRule } from '../../OutOfProcessExtensibility/Api/payloadFilters.js';

/** An event subscription as Adobe's eventing routes spell it, with the destination URL of our own. */
export interface EventSubscriptionData {
  /** `observer.<event_name>`, or an alias of it when `parent` is set. */
  name: string;
  /** The event an alias subscription listens to (`observer.<event_name>`); null: `name` itself. */
  parent: string | null;
  /**
   * Dot paths into the event data: only these are sent (`items[].sku`: that field of every element of
   * the array `items`; `source`: where the value is read, `name` when absent). Empty, or `*`: all of it.
   */
  fields: PayloadField[];
  rules: PayloadRule[];
  /** The http(s) URL events are POSTed to (same host rules and signing as webhooks). */
  destination: string;
  /** Adobe's priority events: sent through their own queue (`event.delivery.priority`), ahead of the others. */
  priority: boolean;
  /**
   * The envelope: `standardwebhooks` (default; `{type, timestamp, data}`, the id in `webhook-id`)
   * or `cloudevents` (CloudEvents 1.0 structured mode, as Adobe I/O delivers).
   */
  format: EventFormat;
  /** `api`, or the io_events.xml file that declares it. */
  source?: string;
  /** Listed only: `disabled` once the destination answered 410 Gone (subscribe again to enable it). */
  status?: 'enabled' | 'disabled';
  /** Listed only: why it was disabled, else null. */
  status_reason?: string | null;
}

export const EVENT_FORMATS = ['standardwebhooks', 'cloudevents'] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

export interface EventSubscriptionManagementInterface {
  /** Adds or replaces the subscription of that name; answers it, with its secret when generated (shown once). */
  subscribe(
    event: Partial<EventSubscriptionData> & { secret?: string },
    force?: boolean,
  ): Promise<EventSubscriptionData & { secret?: string }>;
  /**
   * Adobe's `PUT /V1/eventing/eventSubscribe/:name`: changes a run-time subscription; the fields and
   * rules given are merged into its own (by field name, by rule field and operator), the other
   * attributes given replace its. The secret is kept unless one is given.
   */
  update(name: string, event: Partial<EventSubscriptionData> & { secret?: string }): Promise<EventSubscriptionData>;
  unsubscribe(name: string): Promise<boolean>;
  getList(): Promise<EventSubscriptionData[]>;
}

const EVENT_NAME = Joi.string()
  .pattern(/^[a-z0-9_.]+$/)
  .max(255);

export const eventSubscriptionSchema = Joi.object({
  name: EVENT_NAME.required(),
  parent: EVENT_NAME.allow(null).default(null),
  fields: payloadFieldsSchema.default([]),
  rules: payloadRulesSchema.default([]),
  destination: Joi.string().max(2048).required(),
  priority: Joi.boolean().default(false),
  format: Joi.string()
    .valid(...EVENT_FORMATS)
    .default('standardwebhooks'),
  secret: Joi.string().pattern(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/),
});

/** The body of an update: every attribute optional (the name, if given, must be the route's). */
export const eventSubscriptionUpdateSchema = Joi.object({
  name: EVENT_NAME,
  parent: EVENT_NAME.allow(null),
  // The same bounds as a subscription's (a rule value of an update was once not held to 4096 characters).
  fields: payloadFieldsSchema,
  rules: payloadRulesSchema,
  destination: Joi.string().max(2048),
  priority: Joi.boolean(),
  format: Joi.string().valid(...EVENT_FORMATS),
  secret: Joi.string().pattern(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/),
});

export const EventSubscriptionManagementInterface = defineContract<EventSubscriptionManagementInterface>(
  'Dispensary\\Eventing\\Api\\EventSubscriptionManagementInterface',
  {
    subscribe: {
      params: [
        { name: 'event', schema: eventSubscriptionSchema.required() },
        // Adobe's `force` (subscribe an event not declared locally): every observer event may be subscribed here.
        { name: 'force', schema: Joi.boolean() },
      ],
      description: 'Subscribe an event (Adobe eventing body plus destination); the generated secret is answered once',
    },
    update: {
      params: [
        { name: 'name', schema: EVENT_NAME.required() },
        { name: 'event', schema: eventSubscriptionUpdateSchema.required() },
      ],
      description: 'Update a run-time event subscription: fields and rules merged into its own (Adobe)',
    },
    unsubscribe: { params: [{ name: 'name', schema: EVENT_NAME.required() }], description: 'Unsubscribe an event' },
    getList: { params: [], description: 'Every event subscription: io_events.xml and run-time ones' },
  },
);
