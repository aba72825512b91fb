/**
 * What one request leaves for its log line and metrics: the id it answers under, and what the
 * front controller learnt (route pattern, store, caller, the 500's report id). Kept on
 * `res.locals`, so the observer that writes the line needs nothing else from the handler.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../context/RequestContext.js';

export interface RequestTrace {
  readonly requestId: string;
  /** The webapi.xml url of the matched route (`/V1/products/:sku`), or a fixed name (`/health`). */
  route?: string;
  storeCode?: string;
  caller?: Caller;
  reportId?: string;
}

/** 1 to 128 characters of [A-Za-z0-9._-]: echoed as sent; anything else gets a fresh id. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function startTrace(
  req: IncomingMessage,
  res: ServerResponse & { locals?: Record<string, unknown> },
): RequestTrace {
  const sent = req.headers['x-request-id'];
  const trace: RequestTrace = {
    requestId: typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID(),
  };
  res.setHeader('X-Request-Id', trace.requestId);
  if (res.locals) res.locals.trace = trace;
  return trace;
}

/** The trace of this response; a fresh one when no observer started it (an app without it). */
export function traceOf(res: ServerResponse & { locals?: Record<string, unknown> }): RequestTrace {
  const trace = res.locals?.trace as RequestTrace | undefined;
  return trace ?? { requestId: randomUUID() };
}
