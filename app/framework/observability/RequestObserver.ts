/**
 * One structured log line and one metrics sample per request, written when the answer ends (or
 * the client goes away): request id, method, route pattern, store code, caller type and id,
 * status, duration, and the report id of a 500. Never a header value, token or body.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from './Metrics.js';
import { startTrace } from './RequestTrace.js';

/** Requests that matched no route share one label, so probing random paths cannot grow the metrics. */
export const UNMATCHED_ROUTE = '(unmatched)';

export function requestObserver(logger: Logger, metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const trace = startTrace(req, res);
    res.once('close', () => {
      // An event listener: what it throws would end the process. Nothing of a request may.
      try {
        observed();
      } catch (error) {
        logger.error({ err: error, reqId: trace.requestId }, 'recording the request failed');
      }
    });
    const observed = () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = trace.route ?? UNMATCHED_ROUTE;
      // A client that left before the answer was complete: logged, counted under status 499 (nginx's name for it).
      const status = res.writableFinished ? res.statusCode : 499;
      metrics.observe(req.method, route, status, seconds);
      logger.info(
        {
          reqId: trace.requestId,
          method: req.method,
          route,
          store: trace.storeCode,
          callerType: trace.caller?.type,
          callerId: trace.caller?.id ?? undefined,
          status,
          durationMs: Math.round(seconds * 1e6) / 1e3,
          reportId: trace.reportId,
        },
        'request',
      );
    };
    next();
  };
}
