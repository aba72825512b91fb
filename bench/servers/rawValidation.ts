/**
 * The raw references' request validation (bench/servers/raw.ts on SQLite, rawPostgres.ts on
 * PostgreSQL): the contract's item field rules written out by hand, with the service's messages.
 */
import { FULFILLMENT_TYPES, inputError, MSG, type ItemInput, type Params } from './common.js';

const MAX_ITEMS = 1000;
const INTERVAL = /^(?:once|[1-9][0-9]{0,3}[dwm])$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FULFILLMENT_BY_LOWER = new Map(FULFILLMENT_TYPES.map((t) => [t.toLowerCase(), t]));
const ITEM_FIELDS = new Set([
  'sku',
  'qty',
  'autoship_interval',
  'note',
  'fulfillment_type',
  'fullfillment_type',
  'doctor_id',
  'location_id',
  'item_id',
  'availability',
]);

export type Errors = { phrase: string; parameters: Params }[];

function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function storable(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

function whole(value: unknown, min: number, max: number): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^[0-9]{1,16}$/.test(value)) n = Number(value);
  else return undefined;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

function fulfillment(value: unknown): string | null | undefined {
  if (value === null) return null;
  return typeof value === 'string' ? FULFILLMENT_BY_LOWER.get(value.trim().toLowerCase()) : undefined;
}

function validItem(raw: unknown, path: string, errors: Errors): ItemInput | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push({ phrase: MSG.invalid, parameters: { fieldName: path, value: describe(raw) } });
    return undefined;
  }
  const source = raw as Record<string, unknown>;
  const before = errors.length;
  const bad = (field: string, value: unknown) =>
    errors.push({ phrase: MSG.invalid, parameters: { fieldName: `${path}.${field}`, value: describe(value) } });
  for (const key of Object.keys(source))
    if (!ITEM_FIELDS.has(key)) errors.push({ phrase: MSG.unknownField, parameters: { fieldName: `${path}.${key}` } });
  const item: Partial<ItemInput> = {};
  const sku = source.sku;
  if (sku === undefined) errors.push({ phrase: MSG.required, parameters: { fieldName: `${path}.sku` } });
  else if (typeof sku !== 'string' || sku.trim().length < 1 || sku.trim().length > 64 || !storable(sku))
    bad('sku', sku);
  else item.sku = sku.trim();
  if (source.qty === undefined) errors.push({ phrase: MSG.required, parameters: { fieldName: `${path}.qty` } });
  else if ((item.qty = whole(source.qty, 1, 10000)) === undefined) bad('qty', source.qty);
  if ('autoship_interval' in source) {
    const v = source.autoship_interval;
    if (v === null) item.autoship_interval = null;
    else if (typeof v === 'string' && INTERVAL.test(v.trim().toLowerCase()))
      item.autoship_interval = v.trim().toLowerCase();
    else bad('autoship_interval', v);
  }
  if ('note' in source) {
    const v = source.note;
    if (v === null || (typeof v === 'string' && v.length <= 2000 && storable(v))) item.note = v as string | null;
    else bad('note', v);
  }
  let type: string | null | undefined;
  if ('fulfillment_type' in source) {
    type = fulfillment(source.fulfillment_type);
    if (type === undefined) bad('fulfillment_type', source.fulfillment_type);
  }
  if ('fullfillment_type' in source) {
    const alias = fulfillment(source.fullfillment_type);
    if (alias === undefined) bad('fullfillment_type', source.fullfillment_type);
    else if ('fulfillment_type' in source && type !== undefined && type !== alias) {
      errors.push({
        phrase: '"%fieldName" and "%otherFieldName" have different values. Send one of them.',
        parameters: { fieldName: `${path}.fullfillment_type`, otherFieldName: `${path}.fulfillment_type` },
      });
    } else if (!('fulfillment_type' in source)) type = alias;
  }
  if (type !== undefined) item.fulfillment_type = type;
  for (const field of ['doctor_id', 'location_id'] as const) {
    if (!(field in source)) continue;
    const v = source[field];
    if (v === null) item[field] = null;
    else if ((item[field] = whole(v, 1, 2147483647)) === undefined) bad(field, v);
  }
  return errors.length === before ? (item as ItemInput) : undefined;
}

export function validate(body: Record<string, unknown>): ItemInput[] {
  const request = body.recommendation;
  if (request === undefined) throw inputError([{ phrase: MSG.required, parameters: { fieldName: 'recommendation' } }]);
  if (request === null || typeof request !== 'object' || Array.isArray(request))
    throw inputError([{ phrase: MSG.invalid, parameters: { fieldName: 'recommendation', value: describe(request) } }]);
  const { items, item, ...rest } = request as Record<string, unknown>;
  const errors: Errors = [];
  for (const key of Object.keys(rest))
    errors.push({ phrase: MSG.unknownField, parameters: { fieldName: `recommendation.${key}` } });
  let list: ItemInput[] = [];
  if (item !== undefined && items !== undefined) {
    errors.push({
      phrase: 'Send either "%fieldName" or "%otherFieldName", not both.',
      parameters: { fieldName: 'recommendation.item', otherFieldName: 'recommendation.items' },
    });
  } else if (item !== undefined) {
    const one = validItem(item, 'recommendation.item', errors);
    if (one) list = [one];
  } else if (items === undefined) {
    errors.push({ phrase: MSG.required, parameters: { fieldName: 'recommendation.items' } });
  } else if (!Array.isArray(items)) {
    errors.push({ phrase: MSG.invalid, parameters: { fieldName: 'recommendation.items', value: describe(items) } });
  } else if (items.length > MAX_ITEMS) {
    errors.push({
      phrase: 'A request may carry at most %max items; "%fieldName" has %count.',
      parameters: { max: MAX_ITEMS, fieldName: 'recommendation.items', count: items.length },
    });
  } else {
    list = items.map((raw, i) => validItem(raw, `recommendation.items[${i}]`, errors)!);
  }
  if (errors.length) throw inputError(errors);
  return list;
}
