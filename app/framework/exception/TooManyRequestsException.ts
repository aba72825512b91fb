import { WebapiException } from './LocalizedException.js';

/**
 * 429 with Magento's phrase (its REST controller answers `Too Many Requests` when backpressure
 * refuses a call) and a `Retry-After` in whole seconds.
 */
export class TooManyRequestsException extends WebapiException {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too Many Requests', {}, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
