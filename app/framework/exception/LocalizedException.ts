/**
 * Magento's exception family. The message is a raw phrase with %named placeholders; the
 * parameters fill them. The web API renders `{message, parameters}` exactly as Magento does.
 */
export type Parameters = Record<string, string | number>;

export class LocalizedException extends Error {
  /** HTTP status the web API answers with; subclasses set their own. */
  readonly httpStatus: number = 400;

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
  return phrase.replace(/%(\w+)/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(parameters, key) ? String(parameters[key]) : whole,
  );
}

export class NoSuchEntityException extends LocalizedException {
  override readonly httpStatus = 404;

  static singleField(fieldName: string, fieldValue: string | number): NoSuchEntityException {
    return new NoSuchEntityException('No such entity with %fieldName = %fieldValue', {
      fieldName,
      fieldValue,
    });
  }
}

export class AuthorizationException extends LocalizedException {
  override readonly httpStatus = 401;

  static forResources(resources: readonly string[]): AuthorizationException {
    return new AuthorizationException("The consumer isn't authorized to access %resources.", {
      resources: resources.join(', '),
    });
  }
}

/** Wrong credentials: the same message whether the user exists or not, as Magento answers. */
export class AuthenticationException extends LocalizedException {
  override readonly httpStatus = 401;

  static invalidCredentials(): AuthenticationException {
    return new AuthenticationException(
      'The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later.',
    );
  }
}

/** An exception with an explicit status, for what has no Magento class of its own (413, 415, 503). */
export class WebapiException extends LocalizedException {
  override readonly httpStatus: number;

  constructor(
    httpStatus: number,
    phrase: string,
    parameters: Parameters = {},
    /** Response headers that go with the error, e.g. `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(phrase, parameters);
    this.httpStatus = httpStatus;
  }
}
