/**
 * The web API's error processor (Magento's Webapi\ErrorProcessor::maskException): domain
 * exceptions carry no HTTP status; here, at the edge, each exception class gets its status and
 * the headers that go with it. A WebapiException (the web layer's own errors) keeps its status.
 */
import {
  AuthenticationException,
  AuthorizationException,
  LocalizedException,
  NoSuchEntityException,
} from '../exception/LocalizedException.js';
import { ServiceUnavailableException } from '../exception/ServiceUnavailableException.js';
import { TooManyRequestsException } from '../exception/TooManyRequestsException.js';
import { WebapiException } from './WebapiException.js';

type ExceptionClass = abstract new (...args: never[]) => LocalizedException;

/** First match wins; anything else that is a LocalizedException is bad input (400). */
const STATUSES: readonly (readonly [ExceptionClass, number])[] = [
  [NoSuchEntityException, 404],
  [AuthorizationException, 401],
  [AuthenticationException, 401],
  [TooManyRequestsException, 429],
  [ServiceUnavailableException, 503],
];

export const DEFAULT_ERROR_STATUS = 400;

/** The status the web API answers `error` with. */
export function httpStatusOf(error: LocalizedException): number {
  if (error instanceof WebapiException) return error.httpStatus;
  for (const [type, status] of STATUSES) if (error instanceof type) return status;
  return DEFAULT_ERROR_STATUS;
}

/** Response headers that go with `error`, e.g. `Retry-After` on a 429 or 503. */
export function httpHeadersOf(error: LocalizedException): Readonly<Record<string, string>> | undefined {
  if (error instanceof WebapiException) return error.headers;
  const retryAfter =
    error instanceof TooManyRequestsException || error instanceof ServiceUnavailableException
      ? error.retryAfterSeconds
      : undefined;
  return retryAfter === undefined ? undefined : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) };
}
