/**
 * Every error becomes Magento's REST error body. Expected errors (LocalizedException) answer the
 * status the ErrorProcessor maps their class to, with the raw phrase and parameters; anything else is logged with a report id and
 * answers 500 without the detail, unless developer mode is on.
 */
import { randomBytes } from 'node:crypto';
import { InputException } from '../exception/InputException.js';
import { copyParameters, LocalizedException, renderPhrase, type Parameters } from '../exception/LocalizedException.js';
import type { Logger } from '../logging/logger.js';
import { httpHeadersOf, httpStatusOf } from './ErrorProcessor.js';

export interface ErrorBody {
  message: string;
  parameters?: Parameters;
  errors?: { message: string; parameters: Parameters }[];
  trace?: string;
}

export interface RenderedError {
  readonly status: number;
  readonly body: ErrorBody;
  /** Headers the error carries, e.g. `Retry-After` on a 429. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The report id a 500 body names (also in its log entry and the request's log line). */
  readonly reportId?: string;
}

export class ErrorRenderer {
  constructor(
    private readonly logger: Logger,
    private readonly developerMode: boolean,
  ) {}

  render(error: unknown, requestId?: string): RenderedError {
    if (error instanceof LocalizedException) {
      const body: ErrorBody = { message: error.phrase };
      if (Object.keys(error.parameters).length) body.parameters = copyParameters(error.parameters);
      if (error instanceof InputException && error.errors.length > 1) {
        body.errors = error.errors.map((e) => ({ message: e.phrase, parameters: copyParameters(e.parameters) }));
      }
      const status = httpStatusOf(error);
      if (status >= 500)
        this.logger.error(
          { err: (error as { cause?: unknown }).cause ?? error, reqId: requestId },
          renderPhrase(error.phrase, error.parameters),
        );
      if (this.developerMode) body.trace = error.stack ?? '';
      return { status, body, headers: httpHeadersOf(error) };
    }
    const reportId = `webapi-${randomBytes(6).toString('hex')}`;
    this.logger.error({ err: error, reportId, reqId: requestId }, 'Unexpected error in web API call');
    if (this.developerMode) {
      const err = error instanceof Error ? error : new Error(String(error));
      return { status: 500, body: { message: err.message, trace: err.stack ?? '' }, reportId };
    }
    return {
      status: 500,
      body: { message: `Internal Error. Details are available in Magento log file. Report ID: ${reportId}` },
      reportId,
    };
  }
}
