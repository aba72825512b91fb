/**
 * Turns the query value of `searchCriteria` (as Express's qs parser builds it from Magento's
 * bracketed keys) into checked SearchCriteria, or an InputException listing every problem with the
 * field named as the client sent it (`searchCriteria[filter_groups][0][filters][0][field]`).
 *
 * qs gives a list as an array up to index 20 and as an object keyed by index above it (its
 * arrayLimit); both are read the same way, in index order. `filter_groups`/`filterGroups`,
 * `sort_orders`/`sortOrders`, `page_size`/`pageSize`, `current_page`/`currentPage` and
 * `condition_type`/`conditionType` are accepted in either spelling, as Magento's input processor does.
 */
import {
  InputException,
  invalidFieldValue,
  invalidType,
  requiredField,
  unknownField,
  type InputError,
} from '../../exception/InputException.js';
import {
  CONDITION_TYPES,
  DEFAULT_PAGE_SIZE,
  MAX_CURRENT_PAGE,
  MAX_PAGE_SIZE,
  type ConditionType,
  type Filter,
  type FilterGroup,
  type FilterValue,
  type SearchCriteria,
  type SearchFields,
  type SearchFieldType,
  type SortOrder,
} from './SearchCriteria.js';

export const MINIMUM_PAGE_SIZE = 'Minimum SearchCriteria pageSize is %min';
export const MAXIMUM_PAGE_SIZE = 'Maximum SearchCriteria pageSize is %max';

const MAX_INT = 2147483647;
const INDEX = /^(0|[1-9][0-9]{0,8})$/;
const INTEGER = /^-?[0-9]{1,10}$/;
const DECIMAL = /^-?[0-9]{1,20}(\.[0-9]{1,12})?$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Conditions each field type supports: like/finset need text (their SQL would differ by database on numbers). */
const CONDITIONS_BY_TYPE: Record<SearchFieldType, ReadonlySet<ConditionType>> = {
  text: new Set(CONDITION_TYPES),
  timestamp: new Set(CONDITION_TYPES.filter((c) => c !== 'finset' && c !== 'nfinset')),
  integer: new Set(CONDITION_TYPES.filter((c) => !['like', 'nlike', 'finset', 'nfinset'].includes(c))),
  decimal: new Set(CONDITION_TYPES.filter((c) => !['like', 'nlike', 'finset', 'nfinset'].includes(c))),
  boolean: new Set<ConditionType>(['eq', 'neq', 'in', 'nin', 'moreq', 'null', 'notnull']),
};

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The client's key among two spellings, or undefined. */
function pick(raw: Raw, snake: string, camel: string): { key: string; value: unknown } | undefined {
  if (Object.prototype.hasOwnProperty.call(raw, snake)) return { key: snake, value: raw[snake] };
  if (Object.prototype.hasOwnProperty.call(raw, camel)) return { key: camel, value: raw[camel] };
  return undefined;
}

class Parser {
  readonly errors: InputError[] = [];

  constructor(
    private readonly fields: SearchFields,
    private readonly root: string,
  ) {}

  parse(raw: unknown): SearchCriteria {
    if (raw === '' || raw === undefined) raw = {};
    if (!isObject(raw)) {
      this.errors.push(invalidFieldValue(this.root, raw));
      return { filterGroups: [], sortOrders: [], pageSize: DEFAULT_PAGE_SIZE, currentPage: 1 };
    }
    const known = new Set([
      'filter_groups',
      'filterGroups',
      'sort_orders',
      'sortOrders',
      'page_size',
      'pageSize',
      'current_page',
      'currentPage',
    ]);
    for (const key of Object.keys(raw)) if (!known.has(key)) this.errors.push(unknownField(`${this.root}[${key}]`));

    const groups = pick(raw, 'filter_groups', 'filterGroups');
    const filterGroups = groups
      ? this.list(groups.value, `${this.root}[${groups.key}]`).map(([path, group]) => this.filterGroup(group, path))
      : [];
    const sorts = pick(raw, 'sort_orders', 'sortOrders');
    const sortOrders = sorts
      ? this.list(sorts.value, `${this.root}[${sorts.key}]`).map(([path, sort]) => this.sortOrder(sort, path))
      : [];
    return {
      filterGroups: filterGroups.filter((g): g is FilterGroup => g !== null),
      sortOrders: sortOrders.filter((s): s is SortOrder => s !== null),
      pageSize: this.pageSize(pick(raw, 'page_size', 'pageSize')),
      currentPage: this.currentPage(pick(raw, 'current_page', 'currentPage')),
    };
  }

  /** A list as qs gives it (array, or object keyed by index past arrayLimit), in index order, with each element's path. */
  private list(value: unknown, path: string): [string, unknown][] {
    if (value === '') return [];
    if (Array.isArray(value)) return value.map((v, i) => [`${path}[${i}]`, v]);
    if (isObject(value) && Object.keys(value).every((k) => INDEX.test(k))) {
      return Object.keys(value)
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => [`${path}[${k}]`, value[k]]);
    }
    this.errors.push(invalidFieldValue(path, value));
    return [];
  }

  private filterGroup(raw: unknown, path: string): FilterGroup | null {
    if (!isObject(raw)) {
      this.errors.push(invalidFieldValue(path, raw));
      return null;
    }
    for (const key of Object.keys(raw)) if (key !== 'filters') this.errors.push(unknownField(`${path}[${key}]`));
    const filters = this.list(raw.filters ?? [], `${path}[filters]`)
      .map(([p, f]) => this.filter(f, p))
      .filter((f): f is Filter => f !== null);
    // An empty group constrains nothing (Magento adds no condition for it).
    return filters.length ? { filters } : null;
  }

  private filter(raw: unknown, path: string): Filter | null {
    if (!isObject(raw)) {
      this.errors.push(invalidFieldValue(path, raw));
      return null;
    }
    const conditionKey = pick(raw, 'condition_type', 'conditionType');
    for (const key of Object.keys(raw)) {
      if (key !== 'field' && key !== 'value' && key !== conditionKey?.key)
        this.errors.push(unknownField(`${path}[${key}]`));
    }
    const before = this.errors.length;
    const field = this.fieldName(raw.field, `${path}[field]`, 'filter');
    let condition: ConditionType = 'eq';
    if (conditionKey !== undefined && conditionKey.value !== '') {
      const given = conditionKey.value;
      if (typeof given === 'string' && (CONDITION_TYPES as readonly string[]).includes(given.toLowerCase())) {
        condition = given.toLowerCase() as ConditionType;
      } else {
        this.errors.push(invalidFieldValue(`${path}[${conditionKey.key}]`, given));
      }
    }
    if (this.errors.length > before || field === null) return null;
    const type = this.fields[field]!;
    if (!CONDITIONS_BY_TYPE[type].has(condition)) {
      this.errors.push(invalidFieldValue(`${path}[${conditionKey?.key ?? 'condition_type'}]`, condition));
      return null;
    }
    if (condition === 'null' || condition === 'notnull') {
      return { field, conditionType: condition, value: typeof raw.value === 'string' ? raw.value : null, values: [] };
    }
    const valuePath = `${path}[value]`;
    if (raw.value === undefined) {
      this.errors.push(requiredField(valuePath));
      return null;
    }
    if (typeof raw.value !== 'string' || raw.value.includes('\u0000')) {
      this.errors.push(invalidFieldValue(valuePath, raw.value));
      return null;
    }
    // Magento splits in/nin values on commas, as they are (no trimming).
    const parts = condition === 'in' || condition === 'nin' ? raw.value.split(',') : [raw.value];
    const values: FilterValue[] = [];
    for (const part of parts) {
      const typed = condition === 'like' || condition === 'nlike' ? part : typedValue(type, part);
      if (typed === undefined) {
        this.errors.push(invalidFieldValue(valuePath, raw.value));
        return null;
      }
      values.push(typed);
    }
    return { field, conditionType: condition, value: raw.value, values };
  }

  private sortOrder(raw: unknown, path: string): SortOrder | null {
    if (!isObject(raw)) {
      this.errors.push(invalidFieldValue(path, raw));
      return null;
    }
    for (const key of Object.keys(raw))
      if (key !== 'field' && key !== 'direction') this.errors.push(unknownField(`${path}[${key}]`));
    const field = this.fieldName(raw.field, `${path}[field]`, 'sort');
    let direction: 'ASC' | 'DESC' = 'DESC'; // Magento's collection processors sort descending unless told ASC
    if (raw.direction !== undefined && raw.direction !== '') {
      const given = typeof raw.direction === 'string' ? raw.direction.toUpperCase() : '';
      if (given === 'ASC' || given === 'DESC') direction = given;
      else {
        this.errors.push(invalidFieldValue(`${path}[direction]`, raw.direction));
        return null;
      }
    }
    return field === null ? null : { field, direction };
  }

  private fieldName(value: unknown, path: string, _use: 'filter' | 'sort'): string | null {
    if (value === undefined || value === '') {
      this.errors.push(requiredField(path));
      return null;
    }
    if (typeof value !== 'string' || !Object.prototype.hasOwnProperty.call(this.fields, value)) {
      this.errors.push(invalidFieldValue(path, value));
      return null;
    }
    return value;
  }

  private pageSize(given: { key: string; value: unknown } | undefined): number {
    if (given === undefined || given.value === '') return DEFAULT_PAGE_SIZE;
    const path = `${this.root}[${given.key}]`;
    const n = typeof given.value === 'string' && INTEGER.test(given.value.trim()) ? Number(given.value.trim()) : NaN;
    if (Number.isNaN(n)) this.errors.push(this.notAnInteger(path, given));
    else if (n < 1) this.errors.push({ phrase: MINIMUM_PAGE_SIZE, parameters: { min: 1 } });
    else if (n > MAX_PAGE_SIZE) this.errors.push({ phrase: MAXIMUM_PAGE_SIZE, parameters: { max: MAX_PAGE_SIZE } });
    else return n;
    return DEFAULT_PAGE_SIZE;
  }

  private currentPage(given: { key: string; value: unknown } | undefined): number {
    if (given === undefined || given.value === '') return 1;
    const n = typeof given.value === 'string' && INTEGER.test(given.value.trim()) ? Number(given.value.trim()) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= MAX_CURRENT_PAGE) return n;
    this.errors.push(this.notAnInteger(`${this.root}[${given.key}]`, given));
    return 1;
  }

  /** What isn't a number at all gets Magento's type message (SearchCriteria's setter takes an int); a number out of range the invalid-value one. */
  private notAnInteger(path: string, given: { key: string; value: unknown }) {
    const numeric =
      typeof given.value === 'string' && given.value.trim() !== '' && Number.isFinite(Number(given.value));
    return numeric ? invalidFieldValue(path, given.value) : invalidType(path, [given.key], given.value, 'int');
  }
}

/** A filter value as its field's type binds it, or undefined when it is not one. */
export function typedValue(type: SearchFieldType, text: string): FilterValue | undefined {
  switch (type) {
    case 'text':
      return text;
    case 'integer': {
      const trimmed = text.trim();
      if (!INTEGER.test(trimmed)) return undefined;
      const n = Number(trimmed);
      return Math.abs(n) <= MAX_INT ? n : undefined;
    }
    case 'decimal': {
      const trimmed = text.trim();
      return DECIMAL.test(trimmed) ? Number(trimmed) : undefined;
    }
    case 'boolean': {
      const lower = text.trim().toLowerCase();
      if (lower === '1' || lower === 'true') return true;
      if (lower === '0' || lower === 'false') return false;
      return undefined;
    }
    case 'timestamp':
      return normaliseTimestamp(text.trim());
  }
}

/**
 * `YYYY-MM-DD[ HH:MM[:SS]]` (a `T` works too) in UTC, or with `Z`/an offset converted to UTC, to
 * the stored form `YYYY-MM-DD HH:MM:SS`. A date alone is its midnight, as MySQL compares it.
 */
export function normaliseTimestamp(text: string): string | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(utc);
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d)
  )
    return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let time = utc;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
  }
  return new Date(time).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Parses and checks `raw` against the repository's fields. `root` is how the client names the
 * parameter (`searchCriteria`). Throws InputException with every problem found.
 */
export function parseSearchCriteria(raw: unknown, fields: SearchFields, root = 'searchCriteria'): SearchCriteria {
  const parser = new Parser(fields, root);
  const criteria = parser.parse(raw);
  if (parser.errors.length) throw new InputException(parser.errors);
  return criteria;
}
