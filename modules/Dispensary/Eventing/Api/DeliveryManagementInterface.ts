import {
  defineContract,
  Joi,
  searchCriteriaParameter,
  type SearchCriteria,
  type SearchFields,
  type SearchResults,
} from '#framework';

/**
 * One event delivery: an event for one subscription, its attempts so far and the last answer. Never
 * the payload, the destination's headers or the secret (the payload can carry personal data: the
 * receiver has it, or gets it on a re-drive).
 */
export interface EventDeliveryData {
  /** The outbox id: what a re-drive names. */
  delivery_id: number;
  /** The event's id: the `webhook-id` header the receiver saw. */
  event_id: string;
  subscription_name: string;
  event_name: string;
  /** `pending` (not yet delivered, or waiting for its next attempt), `delivered`, `dead` (gave up). */
  status: string;
  attempts: number;
  /** The last failed attempt's short reason (`http 503`, `timeout`, `unsubscribed`, ...); null once delivered. */
  last_error: string | null;
  /** ISO 8601, UTC. */
  created_at: string;
  /** When it is tried next (pending only). */
  next_attempt_at: string | null;
  delivered_at: string | null;
}

/**
 * The deliveries and dead letters of event subscriptions, for integrators (REST) and operators
 * (`events:dead-letter:*`): one service behind both.
 */
export interface DeliveryManagementInterface {
  /** The deliveries of one subscription (`GET /V1/eventing/subscriptions/:name/deliveries`). */
  getDeliveries(name: string, searchCriteria: SearchCriteria): Promise<SearchResults<EventDeliveryData>>;
  /** Every dead letter (`GET /V1/eventing/deadLetters`). */
  getDeadLetters(searchCriteria: SearchCriteria): Promise<SearchResults<EventDeliveryData>>;
  /** Sends one dead letter again from attempt one (`POST /V1/eventing/deadLetters/:id/retry`); 404 if it is not dead. */
  retryDeadLetter(id: number): Promise<boolean>;
  /** Sends every dead letter of a subscription again (`POST /V1/eventing/subscriptions/:name/deadLetters/retry`); answers how many. */
  retrySubscriptionDeadLetters(name: string): Promise<number>;
  /** Sends these dead letters (or all of them) again; answers how many (events:dead-letter:retry). */
  retryDeadLetters(ids: number[] | 'all'): Promise<number>;
}

/** What the delivery lists filter and sort by. */
export const DELIVERY_SEARCH_FIELDS: SearchFields = {
  delivery_id: 'integer',
  event_id: 'text',
  subscription_name: 'text',
  event_name: 'text',
  status: 'text',
  last_error: 'text',
};

/** A subscription name, only compared (an unknown one has no deliveries). */
const EVENT_NAME = Joi.string().max(255);

export const DeliveryManagementInterface = defineContract<DeliveryManagementInterface>(
  'Dispensary\\Eventing\\Api\\DeliveryManagementInterface',
  {
    getDeliveries: {
      params: [{ name: 'name', schema: EVENT_NAME.required() }, searchCriteriaParameter(DELIVERY_SEARCH_FIELDS)],
      description: 'The deliveries of an event subscription: status, attempts, last answer (never the payload)',
    },
    getDeadLetters: {
      params: [searchCriteriaParameter(DELIVERY_SEARCH_FIELDS)],
      description: 'Event deliveries that gave up (attempts exhausted or unsubscribed)',
    },
    retryDeadLetter: {
      params: [{ name: 'id', schema: Joi.number().integer().min(1).required() }],
      description: 'Deliver a dead letter again, from attempt one',
    },
    retrySubscriptionDeadLetters: {
      params: [{ name: 'name', schema: EVENT_NAME.required() }],
      description: 'Deliver every dead letter of an event subscription again; answers how many',
    },
    retryDeadLetters: {
      params: [
        {
          name: 'ids',
          schema: Joi.alternatives(
            Joi.array().items(Joi.number().integer().min(1)).max(1000),
            Joi.valid('all'),
          ).required(),
        },
      ],
      description: 'Deliver these dead letters (or all) again; answers how many',
    },
  },
);
