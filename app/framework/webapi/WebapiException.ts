import { LocalizedException, type Parameters } from '../exception/LocalizedException.js';

/**
 * Magento's Webapi\Exception: an error of the web API layer itself (no route, 413, 415, a body
 * that cannot be read) with an explicit status. Models throw domain exceptions instead; the
 * ErrorProcessor gives those their status.
 */
export class WebapiException extends LocalizedException {
  constructor(
    readonly httpStatus: number,
    phrase: string,
    parameters: Parameters = {},
    /** Response headers that go with the error, e.g. `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(phrase, parameters);
  }
}
