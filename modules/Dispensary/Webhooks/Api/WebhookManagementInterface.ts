import { defineContract, Joi } from '#framework';
import { payloadFieldsSchema, payloadRulesSchema } from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import type { PayloadField, PayloadRule } from '../../OutOfProcessExtensibility/Api/payloadFilters.js';

/** A hook as Adobe's REST routes spell it (`GET /V1/webhooks/list` answers these). */
export interface WebhookData {
  webhook_method: string;
  webhook_type: 'before' | 'after';
  batch_name: string;
  batch_order: number;
  hook_name: string;
  url: string;
  priority: number;
  required: boolean;
  /** Milliseconds. */
  soft_timeout: number | null;
  timeout: number;
  /** HTTP method of the call ('' or POST: POST). */
  method: string;
  fallback_error_message: string | null;
  /** Seconds an answer is kept for an identical payload; 0: not cached; at most MAX_TTL_SECONDS. */
  ttl: number;
  fields: PayloadField[];
  rules: PayloadRule[];
  headers: { name: string; value: string }[];
  /** Where it was declared: `api` or the webhooks.xml file. */
  source?: string;
}

/** What subscribe answers: the hook, and its signing secret when this call generated it (shown once). */
export interface SubscribedWebhook extends WebhookData {
  secret?: string;
}

export interface WebhookManagementInterface {
  /** Adds (or replaces: same method, type, batch and hook name) a run-time hook. */
  subscribe(webhook: Partial<WebhookData> & { secret?: string }): Promise<SubscribedWebhook>;
  /** Removes a run-time hook; answers whether one was removed. */
  unsubscribe(
    webhook: Pick<WebhookData, 'webhook_method' | 'webhook_type' | 'batch_name' | 'hook_name'>,
  ): Promise<boolean>;
  /** Every hook, from webhooks.xml files and from the REST routes; never a secret. */
  getList(): Promise<WebhookData[]>;
}

/** Longest `ttl`: an hour (a cached answer outliving that would hide the receiver's own changes). */
export const MAX_TTL_SECONDS = 3600;

const NAME = Joi.string()
  .pattern(/^[A-Za-z0-9_]+$/)
  .max(64);
export const WEBHOOK_METHOD = Joi.string()
  .pattern(/^(plugin|observer)\.[a-z0-9_.]+$/)
  .max(255);

export const webhookSchema = Joi.object({
  webhook_method: WEBHOOK_METHOD.required(),
  webhook_type: Joi.string().valid('before', 'after').required(),
  batch_name: NAME.required(),
  batch_order: Joi.number().integer().default(0),
  hook_name: NAME.required(),
  url: Joi.string().max(2048).required(),
  priority: Joi.number().integer().default(0),
  required: Joi.boolean().default(true),
  soft_timeout: Joi.number().integer().min(1).allow(null).default(null),
  timeout: Joi.number().integer().min(1).max(60_000).default(5000),
  method: Joi.string().valid('', 'POST', 'PUT', 'PATCH', 'post', 'put', 'patch').default('POST'),
  fallback_error_message: Joi.string().max(1024).allow(null).default(null),
  ttl: Joi.number().integer().min(0).max(MAX_TTL_SECONDS).default(0),
  fields: payloadFieldsSchema.default([]),
  rules: payloadRulesSchema.default([]),
  headers: Joi.array()
    .items(
      Joi.object({
        name: Joi.string()
          .pattern(/^[A-Za-z0-9-]+$/)
          .max(128)
          .required(),
        value: Joi.string().max(4096).allow('').required(),
      }),
    )
    .max(50)
    .default([]),
  /** Standard Webhooks secret: `whsec_` and base64 of 24 to 64 bytes. */
  secret: Joi.string().pattern(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/),
});

export const WebhookManagementInterface = defineContract<WebhookManagementInterface>(
  'Dispensary\\Webhooks\\Api\\WebhookManagementInterface',
  {
    subscribe: {
      params: [{ name: 'webhook', schema: webhookSchema.required() }],
      description: 'Subscribe a webhook (Adobe Commerce body); the generated secret is answered once',
    },
    unsubscribe: {
      params: [
        {
          name: 'webhook',
          schema: Joi.object({
            webhook_method: WEBHOOK_METHOD.required(),
            webhook_type: Joi.string().valid('before', 'after').required(),
            batch_name: NAME.required(),
            hook_name: NAME.required(),
          })
            .unknown(true)
            .required(),
        },
      ],
      description: 'Unsubscribe a run-time webhook',
    },
    getList: { params: [], description: 'Every webhook: webhooks.xml and run-time subscriptions' },
  },
);
