/**
 * The joi schemas of the dispensary contracts: every field rule of the REST contract lives here,
 * so the web API rejects a bad request (400, every problem listed) before any service or plugin
 * runs, and services and plugins receive canonical values.
 */
import { DEFER, Joi, LocalizedException, REQUIRED_FIELD, withFastPath } from '#framework';
import type { CustomHelpers } from 'joi';
import {
  FULFILLMENT_TYPES,
  type FulfillmentType,
  type RecommendationItemInput,
  type RecommendationItemsRequest,
} from './Data/RecommendationItemInterface.js';
import type { RecommendationCreateRequest } from './Data/RecommendationInterface.js';
import { MAX_SKU_LENGTH, normalizeSku, skuSchema as catalogSkuSchema } from '../../Catalog/Api/skuKey.js';

export const MAX_ITEMS_PER_REQUEST = 1000;
export { MAX_SKU_LENGTH };
export const MAX_NOTE_LENGTH = 2000;
export const MIN_QTY = 1;
export const MAX_QTY = 10000;
/** Ids are stored in 32-bit signed integer columns on every database. */
export const MAX_ID = 2147483647;
/** `once`, or 1 to 9999 without leading zeros followed by d (days), w (weeks) or m (months); lower-case. */
export const AUTOSHIP_INTERVAL_PATTERN = /^(?:once|[1-9][0-9]{0,3}[dwm])$/;

export const TOO_MANY_ITEMS = 'A request may carry at most %max items; "%fieldName" has %count.';
export const BOTH_ITEM_AND_ITEMS = 'Send either "%fieldName" or "%otherFieldName", not both.';
export const CONFLICTING_ALIAS = '"%fieldName" and "%otherFieldName" have different values. Send one of them.';
export const MIXED_FORMATS =
  '"%fieldName" mixes skus (simple format) and item objects (comprehensive format). Use one format for every item.';

const FULFILLMENT_BY_LOWER = new Map<string, FulfillmentType>(FULFILLMENT_TYPES.map((t) => [t.toLowerCase(), t]));
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `recommendation` + ['items', 0, 'qty'] -> `recommendation.items[0].qty`, as the web API names fields. */
function fieldName(root: string, helpers: CustomHelpers, ...more: (string | number)[]): string {
  let out = root;
  for (const part of [...(helpers.state.path ?? []), ...more])
    out += typeof part === 'number' ? `[${part}]` : `.${part}`;
  return out;
}

/** Text every database stores as sent: no NUL (PostgreSQL refuses it), no lone UTF-16 surrogate. */
function storableText(value: string): string {
  if (value.includes('\u0000') || LONE_SURROGATE.test(value)) throw new Error('not storable text');
  return value;
}

/** A whole number in [min, max] from a JSON integer or a string of decimal digits. */
function wholeNumber(min: number, max: number) {
  return (value: unknown): number => {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && /^[0-9]{1,16}$/.test(value)) n = Number(value);
    else throw new Error('not a whole number');
    if (!Number.isInteger(n) || n < min || n > max) throw new Error('out of range');
    return n;
  };
}

/** `automatic`, `LC`, `1L` in any case (surrounding spaces trimmed); null stays null (the default). */
export function canonicalFulfillmentType(value: unknown): FulfillmentType | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw new Error('not a fulfillment type');
  const canonical = FULFILLMENT_BY_LOWER.get(value.trim().toLowerCase());
  if (!canonical) throw new Error('not a fulfillment type');
  return canonical;
}

function canonicalOrUndefined(value: unknown): FulfillmentType | null | undefined {
  try {
    return canonicalFulfillmentType(value);
  } catch {
    return undefined;
  }
}

/** Trimmed, NFC, no control or format characters, at most MAX_SKU_LENGTH code points (the catalog's rule). */
export const skuSchema = catalogSkuSchema;

/** A JSON number or a string (strict: no joi conversion), then the exact rule. */
const numberOrString = () => Joi.alternatives().try(Joi.number().strict(), Joi.string().strict());
const qtySchema = numberOrString()
  .custom(wholeNumber(MIN_QTY, MAX_QTY))
  .description(`Whole number from ${MIN_QTY} to ${MAX_QTY}: a JSON integer or a string of digits`);
const optionalIdSchema = numberOrString()
  .allow(null)
  .custom(wholeNumber(1, MAX_ID))
  .description('Positive integer (or numeric string), or null');
const noteSchema = Joi.string()
  .allow('', null)
  .max(MAX_NOTE_LENGTH)
  .custom(storableText)
  .description('Free text, or null');
const intervalSchema = Joi.string()
  .allow(null)
  .trim()
  .lowercase()
  .pattern(AUTOSHIP_INTERVAL_PATTERN)
  .description('once (default), or <N>d, <N>w, <N>m with N from 1 to 9999; case-insensitive; null means once');

/** One item of a request, for the parameter named `root` (`recommendation`). */
function itemSchema(root: string) {
  return Joi.object({
    sku: skuSchema.required(),
    qty: qtySchema.required(),
    autoship_interval: intervalSchema,
    note: noteSchema,
    fulfillment_type: Joi.string()
      .allow(null)
      .custom(canonicalFulfillmentType)
      .description('automatic (default), LC or 1L; case-insensitive; null means automatic'),
    // The upstream API's examples spell it this way: the same field.
    // Joi.any(): the conflict check must also run for null, which Joi.string().allow(null) would let through unchecked.
    fullfillment_type: Joi.any()
      .description('The same field as fulfillment_type, spelled as in the upstream examples')
      .custom((value: unknown, helpers) => {
        const canonical = canonicalFulfillmentType(value);
        const sibling = (helpers.state.ancestors[0] as Record<string, unknown>).fulfillment_type;
        if (sibling !== undefined) {
          const other = canonicalOrUndefined(sibling);
          // An invalid sibling reports its own error; only two valid, different values conflict.
          if (other !== undefined && other !== canonical) {
            throw new LocalizedException(CONFLICTING_ALIAS, {
              fieldName: fieldName(root, helpers),
              otherFieldName: fieldName(root, helpers).replace(/fullfillment_type$/, 'fulfillment_type'),
            });
          }
        }
        return canonical;
      }),
    doctor_id: optionalIdSchema,
    location_id: optionalIdSchema,
    // Output-only fields: accepted, so a client can send back what it read, and ignored.
    item_id: Joi.any().strip(),
    availability: Joi.any().strip(),
  }).custom((item: Record<string, unknown>) => {
    if ('fullfillment_type' in item) {
      if (item.fulfillment_type === undefined) item.fulfillment_type = item.fullfillment_type;
      delete item.fullfillment_type;
    }
    return item;
  });
}

/** More than MAX_ITEMS_PER_REQUEST elements: one clear error, before any element is looked at. */
function limitedList(root: string, list: Joi.Schema) {
  return Joi.alternatives().conditional(Joi.array().min(MAX_ITEMS_PER_REQUEST + 1), {
    then: Joi.any().custom((value: unknown[], helpers) => {
      throw new LocalizedException(TOO_MANY_ITEMS, {
        max: MAX_ITEMS_PER_REQUEST,
        fieldName: fieldName(root, helpers),
        count: value.length,
      });
    }),
    otherwise: list,
  });
}

const ITEMS_ROOT = 'recommendation';

/** `{"items": [Item, ...]}` or `{"item": Item}`; the single form becomes a one-element `items`. */
const itemsRequestJoi = Joi.object({
  items: limitedList(ITEMS_ROOT, Joi.array().items(itemSchema(ITEMS_ROOT))).when('item', {
    is: Joi.exist(),
    then: Joi.optional(),
    otherwise: Joi.required(),
  }),
  item: itemSchema(ITEMS_ROOT).custom((value: unknown, helpers) => {
    if ((helpers.state.ancestors[0] as Record<string, unknown>).items !== undefined) {
      throw new LocalizedException(BOTH_ITEM_AND_ITEMS, {
        fieldName: fieldName(ITEMS_ROOT, helpers),
        otherFieldName: `${ITEMS_ROOT}.items`,
      });
    }
    return value;
  }),
})
  .custom(
    (request: { items?: RecommendationItemInput[]; item?: RecommendationItemInput }): RecommendationItemsRequest => ({
      items: request.item ? [request.item] : request.items!,
    }),
  )
  .required();

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** What one field of an item becomes, as itemSchema's joi rule makes it (it throws where joi reports an error). */
const FAST_ITEM_FIELDS: Readonly<Record<string, (value: unknown) => unknown>> = {
  // Joi.string().custom(normalizeSku): a non-empty string.
  sku: (value) => {
    if (typeof value !== 'string' || value === '') throw new Error('defer');
    return normalizeSku(value);
  },
  qty: wholeNumber(MIN_QTY, MAX_QTY),
  // Joi.string().allow(null).trim().lowercase().pattern(): lower-cased, then trimmed (joi's order), then matched.
  autoship_interval: (value) => {
    if (value === null) return null;
    if (typeof value !== 'string') throw new Error('defer');
    const canonical = value.toLocaleLowerCase().trim();
    if (!AUTOSHIP_INTERVAL_PATTERN.test(canonical)) throw new Error('defer');
    return canonical;
  },
  // Joi.string().allow('', null).max().custom(storableText): '' and null as sent, no rule run.
  note: (value) => {
    if (value === null || value === '') return value;
    if (typeof value !== 'string' || value.length > MAX_NOTE_LENGTH) throw new Error('defer');
    return storableText(value);
  },
  // Joi.string().allow(null).custom(canonicalFulfillmentType): '' is joi's string.empty.
  fulfillment_type: (value) => {
    if (value === '') throw new Error('defer');
    return canonicalFulfillmentType(value);
  },
  doctor_id: (value) => (value === null ? null : wholeNumber(1, MAX_ID)(value)),
  location_id: (value) => (value === null ? null : wholeNumber(1, MAX_ID)(value)),
};

/**
 * The fast path of itemsRequestSchema (contract/FastPath.ts): `{"items": [...]}` of at most
 * MAX_ITEMS_PER_REQUEST plain items whose keys are all among FAST_ITEM_FIELDS and pass their rule
 * answers what the joi schema answers (new objects, keys in the order sent); anything else (the
 * single `item` form, the `fullfillment_type` spelling, output-only fields, a JSON string, any
 * invalid value) is left to the schema, which reports it. test/modules/Recommendation/
 * Api/schemas.test.ts compares the two on a corpus of valid and invalid requests.
 */
function fastItemsRequest(value: unknown): RecommendationItemsRequest | typeof DEFER {
  if (!isPlainObject(value)) return DEFER;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'items') return DEFER;
  const list = value.items;
  if (!Array.isArray(list) || list.length > MAX_ITEMS_PER_REQUEST) return DEFER;
  const items: RecommendationItemInput[] = new Array(list.length);
  try {
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (!isPlainObject(item) || !hasOwn(item, 'sku') || !hasOwn(item, 'qty')) return DEFER;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(item)) {
        const rule = hasOwn(FAST_ITEM_FIELDS, key) ? FAST_ITEM_FIELDS[key] : undefined;
        if (!rule) return DEFER;
        out[key] = rule(item[key]);
      }
      items[i] = out as unknown as RecommendationItemInput;
    }
  } catch {
    return DEFER;
  }
  return { items };
}

export const itemsRequestSchema = withFastPath(itemsRequestJoi, fastItemsRequest);

/**
 * Creation: `{"note"?, "notify_email"?, "notify_sms"?, "items"?: [Item, ...] | ["SKU", ...]}`, or
 * nothing at all. Simple-format skus become items with qty 1; `format` records which form came.
 */
export const createRequestSchema = Joi.object({
  note: noteSchema,
  notify_email: Joi.boolean(),
  notify_sms: Joi.boolean(),
  items: limitedList(
    ITEMS_ROOT,
    Joi.array()
      .items(Joi.alternatives().conditional(Joi.string(), { then: skuSchema, otherwise: itemSchema(ITEMS_ROOT) }))
      .custom((items: unknown[], helpers) => {
        const strings = items.filter((i) => typeof i === 'string').length;
        if (strings > 0 && strings < items.length) {
          throw new LocalizedException(MIXED_FORMATS, { fieldName: fieldName(ITEMS_ROOT, helpers) });
        }
        return items;
      }),
  ),
})
  .allow(null)
  .custom((request: Record<string, unknown> | null): RecommendationCreateRequest => {
    const items = (request?.items ?? []) as (string | RecommendationItemInput)[];
    const simple = items.length > 0 && typeof items[0] === 'string';
    const out: RecommendationCreateRequest = {
      ...(request ?? {}),
      format: simple ? 'simple' : 'comprehensive',
      items: items.map((i) => (typeof i === 'string' ? { sku: i, qty: 1 } : i)),
    };
    return out;
  });

/** `?id[]=a&id[]=b` (an array; past 20 elements qs makes it an object keyed by index), `?id=a`, or a JSON list. */
export const itemIdsSchema = Joi.any()
  .custom((value: unknown) => {
    let list: unknown[];
    if (typeof value === 'string') list = [value];
    else if (Array.isArray(value)) list = value;
    else if (value !== null && typeof value === 'object' && Object.keys(value).every((k) => /^[0-9]+$/.test(k))) {
      list = Object.values(value);
    } else throw new Error('not a list of item ids');
    if (list.length > MAX_ITEMS_PER_REQUEST) {
      throw new LocalizedException(TOO_MANY_ITEMS, { max: MAX_ITEMS_PER_REQUEST, fieldName: 'id', count: list.length });
    }
    if (list.some((id) => typeof id !== 'string')) throw new Error('not a list of item ids');
    const ids = (list as string[]).map((id) => id.trim()).filter((id) => id !== '');
    if (ids.length === 0) throw new LocalizedException(REQUIRED_FIELD, { fieldName: 'id' });
    return ids;
  })
  .required();

export const patientInputSchema = Joi.object({
  firstname: Joi.string().trim().min(1).max(255).custom(storableText).required(),
  lastname: Joi.string().trim().min(1).max(255).custom(storableText).required(),
  email: Joi.string()
    .trim()
    .max(255)
    .email({ tlds: { allow: false } })
    .custom((email: string) => {
      // The stored key is lower-cased, which can lengthen some characters: it must fit its column too.
      if (email.toLowerCase().length > 255) throw new Error('too long');
      return storableText(email);
    })
    .required(),
}).required();

/** Path ids: a positive whole number (digits); larger than any stored id answers 404 later. */
export const patientIdSchema = Joi.any().custom(wholeNumber(1, Number.MAX_SAFE_INTEGER)).required();

/** Path ids of recommendations are UUIDs; anything else simply matches nothing (404). */
export const recommendationIdSchema = Joi.string().required();
