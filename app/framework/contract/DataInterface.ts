/**
 * A data interface (`Vendor\Module\Api\Data\ThingInterface`) as a run-time value, like a contract:
 * its name, so `etc/extension_attributes.xml` can extend it, and which of its fields hold other
 * data interfaces, so the web API can find every object of a given interface in a result.
 *
 *   export interface ThingInterface { thing_id: number; parts: PartInterface[] }
 *   export const ThingInterface = defineDataInterface<ThingInterface>('Vendor\\Module\\Api\\Data\\ThingInterface', {
 *     nested: { parts: 'Vendor\\Module\\Api\\Data\\PartInterface[]' },
 *   });
 *
 * Optionally it also carries its fields (`fields`, joi schemas by snake_case name, with
 * `.description()`), which make `schema` (the joi object a contract parameter can use) and the
 * data object's definition in `GET /rest/<scope>/schema`; `required` names the fields every answer
 * has (Magento: the getters whose return type is not nullable); `customAttributes` makes it a
 * Magento CustomAttributesDataInterface (a `custom_attributes` list of `{attribute_code, value}`,
 * see app/framework/api/CustomAttributes.ts).
 */
import Joi from 'joi';
import { customAttributesSchema, type CustomAttributesOptions } from '../api/CustomAttributes.js';

export interface DataInterface<T = unknown> {
  readonly kind: 'data';
  readonly name: string;
  /** Field (snake_case, as output) -> data interface name, `[]` for a list of them. */
  readonly nested: Readonly<Record<string, string>>;
  /** The data object's description (Magento: its class's doc block), for the schema route. */
  readonly description?: string;
  /** Its fields as a joi object (with `custom_attributes` when it declares them); absent when `fields` was not given. */
  readonly schema?: Joi.ObjectSchema;
  /** Fields every answer carries. */
  readonly required: readonly string[];
  /** The custom attributes it keeps, when it is a CustomAttributesDataInterface. */
  readonly customAttributes?: CustomAttributesOptions;
  readonly __type?: T;
}

export interface DataInterfaceOptions<T> {
  nested?: Partial<Record<keyof T & string, string>>;
  description?: string;
  fields?: Readonly<Record<string, Joi.Schema>>;
  required?: readonly (keyof T & string)[];
  customAttributes?: CustomAttributesOptions;
}

export function defineDataInterface<T>(name: string, options: DataInterfaceOptions<T> = {}): DataInterface<T> {
  const fields: Record<string, Joi.Schema> | undefined = options.fields ? { ...options.fields } : undefined;
  if (fields && options.customAttributes) fields.custom_attributes = customAttributesSchema(options.customAttributes);
  return Object.freeze({
    kind: 'data' as const,
    name,
    nested: Object.freeze({ ...(options.nested ?? {}) }) as Record<string, string>,
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(fields ? { schema: Joi.object(fields) } : {}),
    required: Object.freeze([...(options.required ?? [])]),
    ...(options.customAttributes ? { customAttributes: options.customAttributes } : {}),
  });
}

export function isDataInterface(value: unknown): value is DataInterface {
  return typeof value === 'object' && value !== null && (value as DataInterface).kind === 'data';
}
