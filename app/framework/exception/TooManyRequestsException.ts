import { LocalizedException } from './LocalizedException.js';

/**
 * A caller asked too often (the login throttle) and should come back after `retryAfterSeconds`.
 * The phrase is Magento's (its REST controller answers `Too Many Requests` when backpressure
 * refuses a call); the web API answers it 429 with a `Retry-After` in whole seconds.
 */
export class TooManyRequestsException extends LocalizedException {
  constructor(readonly retryAfterSeconds: number) {
    super('Too Many Requests');
  }
}
