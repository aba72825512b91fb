import { LocalizedException, renderPhrase, type Parameters } from './LocalizedException.js';

export interface InputError {
  phrase: string;
  parameters: Parameters;
}

export const REQUIRED_FIELD = '"%fieldName" is required. Enter and try again.';
export const INVALID_FIELD_VALUE = 'Invalid value of "%value" provided for the %fieldName field.';
export const UNKNOWN_FIELD = 'Property "%fieldName" is not supported. Remove it and try again.';
export const AGGREGATED = 'One or more input exceptions have occurred.';

/**
 * Magento's InputException: one error renders as itself; two or more aggregate under
 * "One or more input exceptions have occurred." with an `errors` list.
 */
export class InputException extends LocalizedException {
  readonly errors: InputError[];

  constructor(errors: InputError[]) {
    if (errors.length === 0) throw new Error('InputException needs at least one error');
    const first = errors[0]!;
    super(errors.length === 1 ? first.phrase : AGGREGATED, errors.length === 1 ? first.parameters : {});
    this.errors = errors;
  }

  static requiredField(fieldName: string): InputException {
    return new InputException([requiredField(fieldName)]);
  }

  static invalidFieldValue(fieldName: string, value: unknown): InputException {
    return new InputException([invalidFieldValue(fieldName, value)]);
  }
}

export function requiredField(fieldName: string): InputError {
  return { phrase: REQUIRED_FIELD, parameters: { fieldName } };
}

export function invalidFieldValue(fieldName: string, value: unknown): InputError {
  return { phrase: INVALID_FIELD_VALUE, parameters: { fieldName, value: describeValue(value) } };
}

export function unknownField(fieldName: string): InputError {
  return { phrase: UNKNOWN_FIELD, parameters: { fieldName } };
}

/** Magento's TypeProcessor: a value that cannot be converted to the field's type. */
export const INVALID_TYPE = 'Invalid type for value: "%value". Expected Type: "%type".';
/** Magento's ServiceInputProcessor wraps a nested field's conversion error in one of these per level. */
export const FIELD_PROCESSING_ERROR = 'Error occurred during "%field_name" processing. %details';

/** `(string)$value` as PHP gives it in Magento's message: true is "1", false "", an object or list "array". */
function phpString(value: unknown): string {
  if (value === true) return '1';
  if (value === false) return '';
  if (value !== null && typeof value === 'object') return 'array';
  return describeValue(value);
}

/**
 * A value of the wrong JSON type, as Magento answers it: `Invalid type for value: "abc". Expected
 * Type: "float".`, wrapped in `Error occurred during "price" processing. ...` for each named level
 * below the parameter (extension_attributes, stock_item, qty...). Magento renders the text and
 * sends no parameters (ServiceInputProcessor throws a Webapi\Exception of the rendered message);
 * this service adds one, `fieldName`, the field's full path (`recommendation.items[2].qty`): the
 * text alone does not say which of 1000 items is wrong.
 */
export function invalidType(
  fieldName: string,
  path: readonly (string | number)[],
  value: unknown,
  type: string,
): InputError {
  let message = renderPhrase(INVALID_TYPE, { value: phpString(value), type });
  const names = path.filter((part): part is string => typeof part === 'string');
  for (let i = names.length - 1; i >= 0; i--)
    message = renderPhrase(FIELD_PROCESSING_ERROR, { field_name: names[i]!, details: message });
  return { phrase: message, parameters: { fieldName } };
}

const DESCRIBED_LENGTH = 200;

/**
 * How a rejected value appears in a message: strings as they are, the rest as JSON, kept short.
 * Rendered iteratively and only as far as the message shows, so a value nested thousands deep
 * (or a huge one) costs no more than 200 characters of work and never a stack overflow.
 */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else text = boundedJson(value, DESCRIBED_LENGTH + 1);
  return text.length > DESCRIBED_LENGTH ? `${text.slice(0, DESCRIBED_LENGTH)}...` : text;
}

/** JSON.stringify's text for plain data, cut once it passes `limit` characters. */
function boundedJson(value: unknown, limit: number): string {
  let out = '';
  // Pending work: a value to render, or literal text (closing brackets, commas).
  const stack: ({ text: string } | { value: unknown })[] = [{ value }];
  while (stack.length > 0 && out.length < limit) {
    const next = stack.pop()!;
    if ('text' in next) {
      out += next.text;
      continue;
    }
    const v = next.value;
    if (Array.isArray(v)) {
      out += '[';
      stack.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] === undefined || typeof v[i] === 'function' ? null : v[i] });
        if (i > 0) stack.push({ text: ',' });
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).filter(([, e]) => e !== undefined && typeof e !== 'function');
      out += '{';
      stack.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i]![1] });
        stack.push({ text: `${JSON.stringify(entries[i]![0])}:` });
        if (i > 0) stack.push({ text: ',' });
      }
    } else if (typeof v === 'bigint') out += v.toString();
    else out += JSON.stringify(v) ?? String(v);
  }
  return out;
}
