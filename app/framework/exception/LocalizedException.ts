/**
 * Magento's exception family. The message is a raw phrase with %named placeholders; the
 * parameters fill them. The web API renders `{message, parameters}` exactly as Magento does.
 * As in Magento, a domain exception carries no HTTP status: the web API's ErrorProcessor maps
 * exception classes to statuses at the edge.
 */
/**
 * Named (`%fieldName`) or, as Magento's `__('... "%1" ...', $code)`, positional (`%1` is the
 * first): positional ones answer as a JSON list, `"parameters": ["code"]`, as Magento's do.
 */
export type Parameters = Record<string, string | number> | readonly (string | number)[];

/** A copy for a response body: a list stays a list. */
export function copyParameters(parameters: Parameters): Parameters {
  return Array.isArray(parameters) ? [...(parameters as readonly (string | number)[])] : { ...parameters };
}

export class LocalizedException extends Error {
  constructor(
    readonly phrase: string,
    readonly parameters: Parameters = {},
  ) {
    super(renderPhrase(phrase, parameters));
    this.name = new.target.name;
  }
}

/** Fills %placeholders for logs and developer mode; the API body keeps the raw phrase. */
export function renderPhrase(phrase: string, parameters: Parameters): string {
  const list = Array.isArray(parameters) ? (parameters as readonly (string | number)[]) : null;
  const named = parameters as Record<string, string | number>;
  return phrase.replace(/%(\w+)/g, (whole, key: string) => {
    if (list) return /^[1-9]\d*$/.test(key) && Number(key) <= list.length ? String(list[Number(key) - 1]) : whole;
    return Object.prototype.hasOwnProperty.call(named, key) ? String(named[key]) : whole;
  });
}

export class NoSuchEntityException extends LocalizedException {
  static singleField(fieldName: string, fieldValue: string | number): NoSuchEntityException {
    return new NoSuchEntityException('No such entity with %fieldName = %fieldValue', {
      fieldName,
      fieldValue,
    });
  }
}

export class AuthorizationException extends LocalizedException {
  static forResources(resources: readonly string[]): AuthorizationException {
    return new AuthorizationException("The consumer isn't authorized to access %resources.", {
      resources: resources.join(', '),
    });
  }
}

/** Wrong credentials: the same message whether the user exists or not, as Magento answers. */
export class AuthenticationException extends LocalizedException {
  static invalidCredentials(): AuthenticationException {
    return new AuthenticationException(
      'The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later.',
    );
  }
}
