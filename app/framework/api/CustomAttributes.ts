/**
 * Magento's custom attributes (Framework\Api\CustomAttributesDataInterface): a data object that
 * declares them carries `custom_attributes`, a list of `{attribute_code, value}`
 * (Framework\Api\AttributeInterface). As Magento's ServiceInputProcessor::convertCustomAttributeValue
 * and AbstractExtensibleObject::setCustomAttribute do on input:
 *
 * - each entry names its code as `attribute_code` or `attributeCode`; the list may also be a map
 *   `{code: value}`;
 * - an entry without a code, or without a value, is refused with Magento's message;
 * - a code the data object does not declare is dropped without a word;
 * - a value keeps its JSON type (Magento's `anyType`: "12345" stays a string, 12345 a number)
 *   unless `types` gives the code a joi schema, which then validates and converts it.
 *
 * The answer carries the list in the same shape, in the order the entries came.
 */
import Joi from 'joi';
import { LocalizedException } from '../exception/LocalizedException.js';

export interface AttributeValue {
  attribute_code: string;
  value: unknown;
}

export interface CustomAttributesOptions {
  /** The codes the data object keeps (Magento's getCustomAttributesCodes()). */
  readonly codes: readonly string[];
  /** A code's value type; default any JSON value, kept as sent. */
  readonly types?: Readonly<Record<string, Joi.Schema>>;
}

export const EMPTY_CUSTOM_ATTRIBUTE = 'An empty custom attribute is specified.';
export const MISSING_ATTRIBUTE_CODE =
  'A custom attribute is specified with a missing attribute code. Verify the code and try again.';
export const MISSING_ATTRIBUTE_VALUE =
  'The "%attribute_code" attribute code doesn\'t have a value set. Verify the value and try again.';

/** The joi schema of `custom_attributes` for a data object that keeps `options.codes`. */
export function customAttributesSchema(options: CustomAttributesOptions): Joi.Schema {
  const codes = new Set(options.codes);
  return Joi.any().custom((given: unknown) => {
    if (given === null || typeof given !== 'object') {
      throw new LocalizedException('The "%fieldName" value\'s type is invalid. The "%type" type was expected.', {
        fieldName: 'custom_attributes',
        type: 'AttributeInterface[]',
      });
    }
    const entries: [string | number, unknown][] = Array.isArray(given)
      ? given.map((entry, index) => [index, entry])
      : Object.entries(given);
    const result: AttributeValue[] = [];
    for (const [key, raw] of entries) {
      const entry = (
        raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : { attribute_code: key, value: raw }
      ) as Record<string, unknown>;
      const code = entry.attribute_code ?? entry.attributeCode;
      const hasValue = Object.prototype.hasOwnProperty.call(entry, 'value');
      if (!code && (!hasValue || entry.value === null)) throw new LocalizedException(EMPTY_CUSTOM_ATTRIBUTE);
      if (!code || typeof code !== 'string') throw new LocalizedException(MISSING_ATTRIBUTE_CODE);
      if (!hasValue) throw new LocalizedException(MISSING_ATTRIBUTE_VALUE, { attribute_code: code });
      if (!codes.has(code)) continue;
      let value = entry.value;
      const type = options.types?.[code];
      if (type && value !== null) {
        const checked = type.validate(value, { convert: true });
        if (checked.error) {
          throw new LocalizedException('Invalid value of "%value" provided for the %fieldName field.', {
            value: typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean),
            fieldName: code,
          });
        }
        value = checked.value;
      }
      result.push({ attribute_code: code, value });
    }
    return result;
  }, 'custom attributes');
}

/** Swagger 2.0 definition of Framework\Api\AttributeInterface, as Magento's schema names and describes it. */
export const ATTRIBUTE_INTERFACE_DEFINITION = {
  type: 'object',
  description: 'Interface for custom attribute value.',
  properties: {
    attribute_code: { type: 'string', description: 'Attribute code' },
    value: { type: 'string', description: 'Attribute value' },
  },
  required: ['attribute_code', 'value'],
};
