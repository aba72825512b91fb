/**
 * Maps a request to the arguments of a contract method: path parameters and top-level body keys
 * (camelCase or snake_case) to parameter names, path parameters winning; then validates each with
 * the contract's joi schema and turns every problem into Magento's InputException.
 */
import type Joi from 'joi';
import type { MethodSpec } from '../contract/Contract.js';
import { DEFER, fastPathOf, type FastPath } from '../contract/FastPath.js';
import {
  InputException,
  invalidFieldValue,
  invalidType,
  requiredField,
  unknownField,
  type InputError,
} from '../exception/InputException.js';
import { copyParameters, LocalizedException } from '../exception/LocalizedException.js';
import type { RouteParameterInjection } from '../config/WebapiConfig.js';
import { toCamelCase, toSnakeCase } from './naming.js';

const VALIDATION_OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  errors: { wrap: { label: false } },
};

export interface InputSources {
  readonly pathParams: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly query: Readonly<Record<string, unknown>> | undefined;
  /** Values for %placeholders% in forced webapi.xml parameters. */
  readonly placeholders: Readonly<Record<string, string | number | null>>;
  /**
   * The HTTP method, when the path's last parameter should override the body's (Magento's
   * ParamsOverrider::overrideRequestBodyIdWithPathParam, which runs for PUT only).
   */
  readonly method?: string;
}

/** `recommendation` + ['items', 0, 'qty'] -> `recommendation.items[0].qty` */
export function fieldPath(root: string, path: readonly (string | number)[]): string {
  let out = root;
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

function lookup(source: Readonly<Record<string, unknown>> | undefined, name: string, snake: string): unknown {
  if (!source) return undefined;
  if (Object.prototype.hasOwnProperty.call(source, name)) return source[name];
  if (snake !== name && Object.prototype.hasOwnProperty.call(source, snake)) return source[snake];
  return undefined;
}

const TYPE_ERRORS = new Set(['number.base', 'string.base', 'boolean.base', 'array.base']);

/** The joi schema at `path` below `schema`, if it can be found. */
function schemaAt(schema: Joi.Schema, path: readonly (string | number)[]): Joi.Schema | undefined {
  let current: Joi.Schema | undefined = schema;
  for (const part of path) {
    if (!current) return undefined;
    const described = current as Joi.Schema & { $_terms?: { items?: Joi.Schema[] } };
    if (typeof part === 'number') current = described.$_terms?.items?.[0];
    else {
      try {
        current = current.extract(part) as Joi.Schema;
      } catch {
        return undefined;
      }
    }
  }
  return current;
}

/** The PHP type name Magento's message gives for the field. */
function magentoType(detailType: string, schema: Joi.Schema | undefined): string {
  if (detailType === 'string.base') return 'string';
  if (detailType === 'boolean.base') return 'bool';
  if (detailType === 'object.base') return 'object';
  if (detailType === 'array.base') {
    const items = (schema as (Joi.Schema & { $_terms?: { items?: Joi.Schema[] } }) | undefined)?.$_terms?.items?.[0];
    return items ? `${magentoType(`${items.type}.base`, items)}[]` : 'array';
  }
  return schema?.$_getRule('integer') ? 'int' : 'float';
}

export function joiErrors(error: Joi.ValidationError, root: string, schema?: Joi.Schema): InputError[] {
  const errors: InputError[] = [];
  for (const detail of error.details) {
    const path = fieldPath(root, detail.path);
    const context = detail.context ?? {};
    if (detail.type === 'any.required') errors.push(requiredField(path));
    else if (detail.type === 'object.unknown') errors.push(unknownField(path));
    else if (TYPE_ERRORS.has(detail.type) && context.value !== null && context.value !== undefined) {
      errors.push(
        invalidType(
          path,
          detail.path,
          context.value,
          magentoType(detail.type, schema && schemaAt(schema, detail.path)),
        ),
      );
    } else if (detail.type === 'any.custom' && context.error instanceof InputException)
      errors.push(...context.error.errors);
    else if (detail.type === 'any.custom' && context.error instanceof LocalizedException) {
      errors.push({ phrase: context.error.phrase, parameters: copyParameters(context.error.parameters) });
    } else errors.push(invalidFieldValue(path, context.value));
  }
  return errors;
}

type KeyNormalizer = (value: unknown) => unknown;

interface PreparedSchema {
  readonly schema: Joi.Schema;
  readonly required: boolean;
  readonly normalize: KeyNormalizer | null;
  readonly keys: ReadonlyMap<string, Joi.Schema> | null;
}

/**
 * What the mapper of every route taking a parameter schema needs from it, worked out once per schema
 * object: a process that builds its routes again (each application a test starts, each CLI run) gets
 * the same contract schemas, and joi checked the preferences anew on every prefs() call (a quarter of
 * building the routes). A joi schema never changes (each method answers a new one), and everything
 * here is read from it alone, so a schema another module tree defines gets its own.
 */
const preparedSchemas = new WeakMap<Joi.Schema, PreparedSchema>();

function preparedSchema(schema: Joi.Schema): PreparedSchema {
  let prepared = preparedSchemas.get(schema);
  if (!prepared) {
    prepared = {
      // Performance: options given to validate() are merged anew on every call; set on the
      // schema once, joi merges them once and keeps the result.
      schema: schema.prefs(VALIDATION_OPTIONS),
      required: schema.$_getFlag('presence') === 'required',
      normalize: keyNormalizer(schema),
      keys: declaredKeys(schema),
    };
    preparedSchemas.set(schema, prepared);
  }
  return prepared;
}

interface JoiInternals {
  type?: string;
  $_terms?: {
    keys?: { key: string; schema: Joi.Schema }[] | null;
    items?: Joi.Schema[];
    matches?: { schema?: Joi.Schema; then?: Joi.Schema; otherwise?: Joi.Schema }[];
  };
}

/** The keys a joi object schema declares, or null for anything else (or an object of any keys). */
function declaredKeys(schema: Joi.Schema): ReadonlyMap<string, Joi.Schema> | null {
  const internals = schema as unknown as JoiInternals;
  if (internals.type !== 'object' || !internals.$_terms?.keys) return null;
  return new Map(internals.$_terms.keys.map((child) => [child.key, child.schema]));
}

/**
 * Magento's ServiceInputProcessor finds a data object's setter from a key in either spelling
 * (`item_id` and `itemId` both call setItemId): a function that renames a key sent in one spelling
 * to the one the schema declares (snake_case, or camelCase where a schema declares that), at every level of data objects and lists of them. Keys the
 * schema does not declare in either spelling are left for the schema to refuse; null when the
 * schema holds no data object (nothing to rename, nothing to walk).
 */
export function keyNormalizer(schema: Joi.Schema, depth = 0): KeyNormalizer | null {
  if (depth > 32) return null;
  const internals = schema as unknown as JoiInternals;
  if (internals.type === 'array') {
    const items = (internals.$_terms?.items ?? [])
      .map((item) => keyNormalizer(item, depth + 1))
      .filter((n): n is KeyNormalizer => n !== null);
    if (items.length !== 1) return null;
    const [item] = items as [KeyNormalizer];
    return (value) => (Array.isArray(value) ? value.map(item) : value);
  }
  if (internals.type === 'alternatives') {
    const options = (internals.$_terms?.matches ?? [])
      .flatMap((match) => [match.schema, match.then, match.otherwise])
      .filter((s): s is Joi.Schema => s !== undefined)
      .map((s) => keyNormalizer(s, depth + 1))
      .filter((n): n is KeyNormalizer => n !== null);
    return options.length === 1 ? options[0]! : null;
  }
  const keys = declaredKeys(schema);
  if (!keys) return null;
  const children = new Map<string, KeyNormalizer>();
  for (const [key, child] of keys) {
    const normalizer = keyNormalizer(child, depth + 1);
    if (normalizer) children.set(key, normalizer);
  }
  // The declared spelling of a key sent in the other one (a schema may declare camelCase keys too).
  const rename = (source: Record<string, unknown>, key: string): string => {
    if (keys.has(key)) return key;
    for (const other of [toSnakeCase(key), toCamelCase(key)]) {
      if (other !== key && keys.has(other) && !Object.prototype.hasOwnProperty.call(source, other)) return other;
    }
    return key;
  };
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const source = value as Record<string, unknown>;
    const sourceKeys = Object.keys(source);
    // Performance: no copy unless a key is renamed or a nested value changes.
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < sourceKeys.length; i++) {
      const key = sourceKeys[i]!;
      const target = rename(source, key);
      const child = children.get(target);
      const item = child ? child(source[key]) : source[key];
      if (!out && (target !== key || item !== source[key])) {
        out = {};
        for (let j = 0; j < i; j++) out[sourceKeys[j]!] = source[sourceKeys[j]!];
      }
      if (out) out[target] = item;
    }
    return out ?? value;
  };
}

export class InputMapper {
  private readonly names: {
    name: string;
    snake: string;
    aliases: readonly string[];
    schema: Joi.Schema;
    required: boolean;
    normalize: KeyNormalizer | null;
    keys: ReadonlyMap<string, Joi.Schema> | null;
    /** The schema's fast path for common valid input (contract/FastPath.ts), if it has one. */
    fast: FastPath | undefined;
  }[];

  constructor(
    spec: MethodSpec,
    private readonly injections: readonly RouteParameterInjection[] = [],
  ) {
    this.names = spec.params.map((param) => ({
      name: param.name,
      snake: toSnakeCase(param.name),
      aliases: param.aliases ?? [],
      ...preparedSchema(param.schema),
      // Looked up on every build: attached to a schema object, not read from it (FastPath.ts).
      fast: fastPathOf(param.schema),
    }));
  }

  map(given: InputSources): unknown[] {
    const sources = given.method === 'PUT' ? this.overrideBodyWithPathParam(given) : given;
    const errors: InputError[] = [];
    const args = this.names.map((param) => {
      let value = lookup(sources.pathParams, param.name, param.snake);
      if (value === undefined) value = lookup(sources.body, param.name, param.snake);
      if (value === undefined) value = lookup(sources.query, param.name, param.snake);
      for (const alias of param.aliases)
        if (value === undefined) value = lookup(sources.query, alias, alias) ?? lookup(sources.body, alias, alias);
      // Magento's ServiceInputProcessor asks isset(): a parameter sent as null is a missing one.
      if (value === null) value = undefined;
      value = this.inject(param.name, param.snake, value, sources.placeholders);
      if (value === undefined) {
        // Name the field as the client spells it: a parameter filled through an alias (`?id[]=` for ids) is asked for by its alias.
        if (param.required) errors.push(requiredField(param.aliases[0] ?? param.name));
        // An optional parameter left out still gets its schema's default, if it has one.
        return param.required ? undefined : param.schema.validate(undefined).value;
      }
      if (param.normalize) value = param.normalize(value);
      if (param.fast) {
        const fast = param.fast(value);
        if (fast !== DEFER) return fast;
      }
      const result = param.schema.validate(value);
      if (result.error) errors.push(...joiErrors(result.error, param.snake, param.schema));
      return result.value;
    });
    if (errors.length) throw new InputException(errors);
    return args;
  }

  /**
   * Magento's ParamsOverrider::overrideRequestBodyIdWithPathParam (PUT only): the route's last
   * path parameter goes into the body. When the body holds a single object under the name of a
   * parameter whose data object declares that field, into that object (`PUT /V1/items/1` with
   * `{"entityItem": {"entity_id": 2}}` updates entity 1); otherwise at the top level. The key keeps
   * the body's spelling when the body has the camelCase one, else it is the snake_case one. A
   * path value `me` (Magento's self routes) is never substituted.
   */
  private overrideBodyWithPathParam(sources: InputSources): InputSources {
    const body = sources.body;
    const pathKeys = Object.keys(sources.pathParams);
    if (!body || pathKeys.length === 0) return sources;
    const pathKey = pathKeys[pathKeys.length - 1]!;
    const pathValue = sources.pathParams[pathKey]!;
    if (pathValue === 'me') return sources;
    const substitute = (data: Record<string, unknown>): Record<string, unknown> => {
      const camel = toCamelCase(pathKey);
      const key = data[camel] !== undefined && data[camel] !== null ? camel : toSnakeCase(pathKey);
      return { ...data, [key]: pathValue };
    };
    const bodyKeys = Object.keys(body);
    if (bodyKeys.length === 1) {
      const only = body[bodyKeys[0]!];
      if (only !== null && typeof only === 'object' && !Array.isArray(only)) {
        const param = this.names.find((p) => p.name === bodyKeys[0] || p.snake === bodyKeys[0]);
        if (param?.keys?.has(toSnakeCase(pathKey)))
          return { ...sources, body: { [bodyKeys[0]!]: substitute(only as Record<string, unknown>) } };
      }
    }
    return { ...sources, body: substitute(body) };
  }

  /** Validates arguments that were changed after map() (by a before hook) with the same schemas. */
  revalidate(args: readonly unknown[]): unknown[] {
    const errors: InputError[] = [];
    const validated = this.names.map((param, index) => {
      const value = args[index];
      if (value === undefined) {
        if (param.required) errors.push(requiredField(param.aliases[0] ?? param.name));
        return value;
      }
      const result = param.schema.validate(value);
      if (result.error) errors.push(...joiErrors(result.error, param.snake));
      return result.value;
    });
    if (errors.length) throw new InputException(errors);
    return validated;
  }

  /** webapi.xml <data><parameter name="a.b" force="true">%placeholder%</parameter>. */
  private inject(name: string, snake: string, value: unknown, placeholders: InputSources['placeholders']): unknown {
    for (const injection of this.injections) {
      const [head, ...rest] = injection.name.split('.');
      if (head !== name && head !== snake) continue;
      const placeholder = /^%(\w+)%$/.exec(injection.value)?.[1];
      // A null placeholder (%customer_id% for a caller that is not a customer) injects null, not "null".
      const replacement: string | null =
        placeholder !== undefined && placeholder in placeholders
          ? placeholders[placeholder] === null
            ? null
            : String(placeholders[placeholder])
          : injection.value;
      if (rest.length === 0) {
        if (injection.force || value === undefined) value = replacement;
        continue;
      }
      const root = (value && typeof value === 'object' ? { ...(value as object) } : {}) as Record<string, unknown>;
      let cursor = root;
      for (const key of rest.slice(0, -1)) {
        cursor[key] = cursor[key] && typeof cursor[key] === 'object' ? { ...(cursor[key] as object) } : {};
        cursor = cursor[key] as Record<string, unknown>;
      }
      const last = rest[rest.length - 1]!;
      if (injection.force || cursor[last] === undefined) cursor[last] = replacement;
      value = root;
    }
    return value;
  }
}
