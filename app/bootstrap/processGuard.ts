/**
 * The last resort of the server and of a consumer (`queue:consumers:start`): an error that escapes
 * every request's own handling (a promise nobody awaited, a throw in an event listener or timer
 * started by a request) is logged with its stack and the process goes on serving, instead of
 * ending every request in flight with it. Each request answers its own errors (FrontController,
 * HttpApp's last error handler); what reaches here is a bug to fix, which the log line names.
 * Installed once the server listens (or the consumer starts): a failure during start-up still
 * stops it. Installed once per process, however often a consumer is started in it (tests run the
 * CLI in their own process).
 */
import type { Logger } from '../framework/logging/logger.js';

let guarded = false;

export function guardProcess(logger: Logger): void {
  if (guarded) return;
  guarded = true;
  process.on('unhandledRejection', (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled rejection (an asynchronous error escaped its request); serving on');
  });
  process.on('uncaughtException', (error: Error) => {
    logger.error({ err: error }, 'uncaught exception (an error escaped its request); serving on');
  });
}
