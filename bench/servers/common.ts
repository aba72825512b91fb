/**
 * What the two reference servers (Express + knex, raw node:http + prepared statements) share:
 * plain user code, written without the framework, that produces the service's exact JSON for the
 * benchmark's routes (the smoke test compares the three answers).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const BEARER = /^\s*bearer\s+(\S+)\s*$/i;
export const TOKEN_PATTERN = /^[a-z0-9]{32}$/;
export const RESOURCE = 'Dispensary_Recommendation::recommendation';
/** The resource and its ancestors in acl.xml: a token granted any of them may call the routes. */
export const RESOURCE_CHAIN = [RESOURCE, 'Magento_Backend::admin'];
export const FULFILLMENT_TYPES = ['automatic', 'LC', '1L'];

export const MSG = {
  unauthorized: "The consumer isn't authorized to access %resources.",
  noRoute: 'Request does not match any route.',
  noSuchEntity: 'No such entity with %fieldName = %fieldValue',
  unknownStore: 'The store code "%storeCode" is unknown. Verify the store and try again.',
  required: '"%fieldName" is required. Enter and try again.',
  invalid: 'Invalid value of "%value" provided for the %fieldName field.',
  unknownField: 'Property "%fieldName" is not supported. Remove it and try again.',
  aggregated: 'One or more input exceptions have occurred.',
  productNotFound: 'The product with SKU "%sku" does not exist. Verify "%fieldName" and try again.',
  productDisabled: 'The product with SKU "%sku" is disabled and cannot be added to a recommendation. Verify "%fieldName" and try again.',
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
      return { message: MSG.aggregated, errors: this.errors.map((e) => ({ message: e.phrase, parameters: e.parameters })) };
    }
    const one = this.errors[0] ?? { phrase: this.phrase, parameters: this.parameters };
    return Object.keys(one.parameters).length ? { message: one.phrase, parameters: one.parameters } : { message: one.phrase };
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

export function skuKey(sku: string): string {
  return sku.trim().toLowerCase();
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function nowTimestamp(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
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

/** The integration module's rules for a token row found by hash (store-bound tokens, revocation, expiry, resources). */
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

export interface RecommendationRow {
  recommendation_id: string;
  patient_id: number;
  store_id: number;
  format: string;
  status: string;
  note: string | null;
  notify_email: boolean | number;
  notify_sms: boolean | number;
  created_at: string;
  updated_at: string;
}

export interface ItemRow {
  item_id: string;
  recommendation_id: string;
  sku: string;
  sku_key: string;
  qty: number;
  autoship_interval: string;
  note: string | null;
  fulfillment_type: string;
  doctor_id: number | null;
  location_id: number | null;
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

export function toItem(row: ItemRow, productSku: string | null, inStock: boolean): ItemOut {
  return {
    item_id: row.item_id,
    sku: productSku ?? row.sku,
    qty: Number(row.qty),
    autoship_interval: row.autoship_interval,
    note: row.note,
    fulfillment_type: FULFILLMENT_TYPES.includes(row.fulfillment_type) ? row.fulfillment_type : 'automatic',
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
