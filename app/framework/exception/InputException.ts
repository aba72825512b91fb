import { LocalizedException, type Parameters } from './LocalizedException.js';

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

/** How a rejected value appears in a message: strings as they are, the rest as JSON, kept short. */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
