/**
 * What the two reference servers (Express + knex, raw node:http + prepared statements) share:
 * plain user code, written without the framework, that produces the service's exact JSON for the
 * benchmark's routes (the smoke test compares the three answers byte for byte, so a copy below
 * that drifts from the product fails `npm run bench:smoke`).
 *
 * Taken from the product: the token format and hashing (Integration), the sku key (Catalog), the
 * fulfillment types and row types (Recommendation), the input phrases (the framework's
 * InputException) and the clock. Those files load nothing but node:crypto or pg, so the raw
 * reference still carries no framework. Copies that stay say why beside them.
 */
import {
  AGGREGATED,
  INVALID_FIELD_VALUE,
  REQUIRED_FIELD,
  UNKNOWN_FIELD,
} from '../../app/framework/exception/InputException.js';
import { nowTimestamp } from '../../app/framework/db/dialect.js';
import { skuKey } from '../../modules/Dispensary/Catalog/Api/skuKey.js';
import { hashToken, sameHash, TOKEN_PATTERN } from '../../modules/Dispensary/Integration/Model/tokens.js';
import { FULFILLMENT_TYPES } from '../../modules/Dispensary/Recommendation/Api/Data/RecommendationItemInterface.js';
import type {
  ItemRow,
  RecommendationRow,
} from '../../modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.js';

export { hashToken, nowTimestamp, skuKey, TOKEN_PATTERN, type ItemRow, type RecommendationRow };

// Copies: the product keeps these inside classes built by the container (RecommendationResource,
// TokenAuthorization) or in XML (acl.xml), which the raw reference must not load.
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const BEARER = /^\s*bearer\s+(\S+)\s*$/i;
export const RESOURCE = 'Dispensary_Recommendation::recommendation';
/** The resource and its ancestors in acl.xml: a token granted any of them may call the routes. */
export const RESOURCE_CHAIN = [RESOURCE, 'Magento_Backend::admin'];
export { FULFILLMENT_TYPES };

export const MSG = {
  required: REQUIRED_FIELD,
  invalid: INVALID_FIELD_VALUE,
  unknownField: UNKNOWN_FIELD,
  aggregated: AGGREGATED,
  // Copies: the framework writes these inline where it throws them (FrontController,
  // LocalizedException's factories, ErrorRenderer), and the product phrases live in
  // Model/NewItemRows.ts, which loads the whole framework through #framework.
  unauthorized: "The consumer isn't authorized to access %resources.",
  noRoute: 'Request does not match any route.',
  noSuchEntity: 'No such entity with %fieldName = %fieldValue',
  unknownStore: 'The store code "%storeCode" is unknown. Verify the store and try again.',
  productNotFound: 'The product with SKU "%sku" does not exist. Verify "%fieldName" and try again.',
  productDisabled:
    'The product with SKU "%sku" is disabled and cannot be added to a recommendation. Verify "%fieldName" and try again.',
  decoding: 'Decoding error.',
  notObject: 'The request body must be a JSON object.',
  internal: 'Internal Error. Details are available in the log.',
} as const;

export type Params = Record<string, string | number>;

/** An error with the REST status and Magento body it answers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly phrase: string,
    readonly parameters: Params = {},
    readonly errors: { phrase: string; parameters: Params }[] = [],
  ) {
    super(phrase);
  }

  body(): Record<string, unknown> {
    if (this.errors.length > 1) {
      return {
        message: MSG.aggregated,
        errors: this.errors.map((e) => ({ message: e.phrase, parameters: e.parameters })),
      };
    }
    const one = this.errors[0] ?? { phrase: this.phrase, parameters: this.parameters };
    return Object.keys(one.parameters).length
      ? { message: one.phrase, parameters: one.parameters }
      : { message: one.phrase };
  }
}

export function inputError(errors: { phrase: string; parameters: Params }[]): HttpError {
  return new HttpError(400, errors[0]!.phrase, errors[0]!.parameters, errors);
}

export const unauthorized = () => new HttpError(401, MSG.unauthorized, { resources: RESOURCE });

export function notFound(recommendationId: string): HttpError {
  return new HttpError(404, MSG.noSuchEntity, {
    fieldName: 'recommendation_id',
    fieldValue: recommendationId.length > 64 ? `${recommendationId.slice(0, 64)}...` : recommendationId,
  });
}

export interface TokenRow {
  token_id: number;
  kind: string;
  token_hash: string;
  store_id: number | null;
  resources: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  active_name: string | null;
}

/**
 * The integration module's rules for a token row found by hash (store-bound tokens, revocation,
 * expiry, resources). A copy: the product's live in TokenAuthorization, a container-built class.
 */
export function checkToken(row: TokenRow | undefined, hash: string, storeId: number): void {
  if (!row || !sameHash(row.token_hash, hash)) throw unauthorized();
  if (row.revoked_at !== null || (row.kind === 'integration' && row.active_name === null)) throw unauthorized();
  if (row.expires_at !== null && row.expires_at <= nowTimestamp()) throw unauthorized();
  if (row.store_id !== null && Number(row.store_id) !== storeId) throw unauthorized();
  if (row.resources !== null) {
    const granted = JSON.parse(row.resources) as string[];
    if (!RESOURCE_CHAIN.some((r) => granted.includes(r))) throw unauthorized();
  }
}

export interface ItemReadRow extends ItemRow {
  product_sku: string | null;
  is_in_stock: boolean | number | string | null;
}

export interface ItemOut {
  item_id: string;
  sku: string;
  qty: number;
  autoship_interval: string;
  note: string | null;
  fulfillment_type: string;
  doctor_id: number | null;
  location_id: number | null;
  availability: string;
}

export function truthy(value: boolean | number | string | null): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

// Row to JSON: the product's toItem/toRecommendation sit in RecommendationResource (container-built,
// #framework); mapping rows to the contract's JSON is the user code each reference has to write.
export function toItem(row: ItemRow, productSku: string | null, inStock: boolean): ItemOut {
  return {
    item_id: row.item_id,
    sku: productSku ?? row.sku,
    qty: Number(row.qty),
    autoship_interval: row.autoship_interval,
    note: row.note,
    fulfillment_type: (FULFILLMENT_TYPES as readonly string[]).includes(row.fulfillment_type)
      ? row.fulfillment_type
      : 'automatic',
    doctor_id: row.doctor_id === null ? null : Number(row.doctor_id),
    location_id: row.location_id === null ? null : Number(row.location_id),
    availability: inStock ? 'in stock' : 'out of stock',
  };
}

export function toRecommendation(row: RecommendationRow, items: ItemOut[]): Record<string, unknown> {
  return {
    recommendation_id: row.recommendation_id,
    patient_id: Number(row.patient_id),
    store_id: Number(row.store_id),
    format: row.format,
    status: 'pending',
    note: row.note,
    notify_email: Boolean(row.notify_email),
    notify_sms: Boolean(row.notify_sms),
    created_at: row.created_at,
    updated_at: row.updated_at,
    items,
  };
}

/** Fields Update Items may change, with what null stands for. */
export const UPDATABLE: readonly (readonly [keyof ItemOut & keyof ItemRow, string | null])[] = [
  ['qty', null],
  ['autoship_interval', 'once'],
  ['note', null],
  ['fulfillment_type', 'automatic'],
  ['doctor_id', null],
  ['location_id', null],
];

/** A validated request item, as the service's schema produces it. */
export interface ItemInput {
  sku: string;
  qty: number;
  autoship_interval?: string | null;
  note?: string | null;
  fulfillment_type?: string | null;
  doctor_id?: number | null;
  location_id?: number | null;
}
