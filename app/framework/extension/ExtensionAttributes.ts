/**
 * Extension attributes at the web API's edge: the declared attributes of a data interface are
 * accepted (and type-checked) under `extension_attributes` of an input parameter that carries it,
 * described in the schema, and hidden in output from callers that lack an attribute's
 * `<resources>`. Values are filled by modules, usually in an `after` plugin on a repository.
 */
import Joi from 'joi';
import { ConfigError } from '../xml/xml.js';
import type { MethodSpec, ParameterSpec } from '../contract/Contract.js';
import type { DataInterface } from '../contract/DataInterface.js';
import type { ExtensionAttribute, ExtensionAttributesConfig } from './ExtensionAttributesConfig.js';

/** What a data object carries under `extension_attributes`. */
export type ExtensionAttributes = Record<string, unknown>;

type JsonObject = Record<string, unknown>;

const SCALAR_SCHEMAS: Record<string, () => Joi.Schema> = {
  string: () => Joi.string().allow(''),
  int: () => Joi.number().integer(),
  float: () => Joi.number(),
  boolean: () => Joi.boolean(),
};

const SCALAR_JSON: Record<string, JsonObject> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  boolean: { type: 'boolean' },
};

export function dataInterfaceName(value: DataInterface | string | undefined): string | undefined {
  return typeof value === 'object' ? value.name : value;
}

export class ExtensionAttributesProcessor {
  constructor(
    readonly config: ExtensionAttributesConfig,
    /** Data interfaces by name (loaded at start-up). */
    private readonly interfaces: ReadonlyMap<string, DataInterface>,
  ) {}

  /** The joi schema of `extension_attributes` of a data interface; null when it has none. */
  inputSchema(name: string, seen: readonly string[] = []): Joi.ObjectSchema | null {
    const attributes = this.config.attributesOf(name);
    if (attributes.length === 0 || seen.includes(name)) return null;
    const keys: Record<string, Joi.Schema> = {};
    for (const attribute of attributes) {
      let schema: Joi.Schema;
      if (attribute.scalar) schema = SCALAR_SCHEMAS[attribute.type]!();
      else {
        const nested = this.inputSchema(attribute.type, [...seen, name]);
        schema = Joi.object(nested ? { extension_attributes: nested } : {}).unknown(true);
      }
      keys[attribute.code] = (attribute.list ? Joi.array().items(schema) : schema).allow(null);
    }
    return Joi.object(keys);
  }

  /** The contract method with `extension_attributes` added to each parameter that carries a data interface. */
  extendSpec(spec: MethodSpec, where: string): MethodSpec {
    let changed = false;
    const params = spec.params.map((param): ParameterSpec => {
      const name = dataInterfaceName(param.dataInterface);
      if (!name) return param;
      const schema = this.inputSchema(name);
      if (!schema) return param;
      if (param.schema.type !== 'object') {
        throw new ConfigError(
          `${where}: parameter "${param.name}" carries ${name}, which has extension attributes, but its schema is not a joi object`,
        );
      }
      changed = true;
      return { ...param, schema: (param.schema as Joi.ObjectSchema).keys({ extension_attributes: schema }) };
    });
    return changed ? { ...spec, params } : spec;
  }

  /** True when output of `name` (or anything nested in it) may need attributes hidden. */
  needsFiltering(name: string | undefined): boolean {
    return name !== undefined && this.hasResources(name.replace(/\[\]$/, ''), []);
  }

  private hasResources(name: string, seen: string[]): boolean {
    if (seen.includes(name)) return false;
    const next = [...seen, name];
    for (const attribute of this.config.attributesOf(name)) {
      if (attribute.resources.length) return true;
      if (!attribute.scalar && this.hasResources(attribute.type, next)) return true;
    }
    for (const nested of Object.values(this.interfaces.get(name)?.nested ?? {})) {
      if (this.hasResources(nested.replace(/\[\]$/, ''), next)) return true;
    }
    return false;
  }

  /**
   * Removes, in place, the extension attributes the caller may not see from a result of data
   * interface `type` (`Name[]` for a list), following nested data interfaces.
   */
  filterOutput(value: unknown, type: string, allows: (resource: string) => boolean): void {
    if (value === null || typeof value !== 'object') return;
    if (type.endsWith('[]') || Array.isArray(value)) {
      const itemType = type.replace(/\[\]$/, '');
      if (Array.isArray(value)) for (const item of value) this.filterOutput(item, itemType, allows);
      return;
    }
    const object = value as JsonObject;
    const extension = object.extension_attributes ?? object.extensionAttributes;
    if (extension && typeof extension === 'object') {
      for (const attribute of this.config.attributesOf(type)) {
        const current = (extension as JsonObject)[attribute.code];
        if (current === undefined) continue;
        if (!attribute.resources.every(allows)) delete (extension as JsonObject)[attribute.code];
        else if (!attribute.scalar)
          this.filterOutput(current, attribute.list ? `${attribute.type}[]` : attribute.type, allows);
      }
    }
    for (const [field, nestedType] of Object.entries(this.interfaces.get(type)?.nested ?? {})) {
      this.filterOutput(object[field], nestedType, allows);
    }
  }

  /** JSON Schema of `extension_attributes` of a data interface, for the Swagger document. */
  describe(name: string, seen: readonly string[] = []): JsonObject | null {
    const attributes = this.config.attributesOf(name);
    if (attributes.length === 0 || seen.includes(name)) return null;
    const properties: Record<string, JsonObject> = {};
    for (const attribute of attributes) properties[attribute.code] = this.describeAttribute(attribute, [...seen, name]);
    return { type: 'object', description: `Extension attributes of ${name}`, properties };
  }

  private describeAttribute(attribute: ExtensionAttribute, seen: readonly string[]): JsonObject {
    let schema: JsonObject;
    if (attribute.scalar) schema = { ...SCALAR_JSON[attribute.type] };
    else {
      const nested = this.describe(attribute.type, seen);
      schema = {
        type: 'object',
        'x-data-interface': attribute.type,
        ...(nested ? { properties: { extension_attributes: nested } } : {}),
      };
    }
    if (attribute.list) schema = { type: 'array', items: schema };
    if (attribute.resources.length) schema['x-resources'] = attribute.resources;
    return schema;
  }

  /** The output schema of a data interface (and the ones nested in it): its extension attributes. */
  describeOutput(type: string, seen: readonly string[] = []): JsonObject {
    const name = type.replace(/\[\]$/, '');
    const properties: Record<string, JsonObject> = {};
    if (!seen.includes(name)) {
      const extension = this.describe(name);
      if (extension) properties.extension_attributes = extension;
      for (const [field, nested] of Object.entries(this.interfaces.get(name)?.nested ?? {})) {
        const inner = this.describeOutput(nested, [...seen, name]);
        const object = (inner.items ?? inner) as JsonObject;
        if (Object.keys(object.properties as object).length) properties[field] = inner;
      }
    }
    const schema: JsonObject = { type: 'object', 'x-data-interface': name, properties };
    return type.endsWith('[]') ? { type: 'array', items: schema } : schema;
  }
}
