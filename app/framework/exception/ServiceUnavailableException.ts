import { LocalizedException, type Parameters } from './LocalizedException.js';

export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable. Try again later.';

/**
 * Something the call needs is away for now (the database, the message queue, a busy resource):
 * the same call may succeed later. The web API answers it 503, with a `Retry-After` when
 * `retryAfterSeconds` is known; the async consumer retries it.
 */
export class ServiceUnavailableException extends LocalizedException {
  constructor(
    phrase: string = SERVICE_UNAVAILABLE,
    parameters: Parameters = {},
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(phrase, parameters);
    if (options && 'cause' in options) (this as { cause?: unknown }).cause = options.cause;
  }
}
