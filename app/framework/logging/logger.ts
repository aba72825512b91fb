import pino, { type Logger } from 'pino';
import { StdoutDestination } from './StdoutDestination.js';

export type { Logger };

let stdout: StdoutDestination | undefined;

/**
 * JSON logs to stdout (pino) at `level` (LOG_LEVEL, read by the deployment config). Lines go through
 * process.stdout, which never blocks the event loop on a pipe (StdoutDestination bounds what it
 * buffers and drops lines once the reader is gone), instead of pino's synchronous default
 * destination, which spins forever on a pipe nobody reads.
 */
export function createLogger(level = 'info'): Logger {
  stdout ??= new StdoutDestination(process.stdout);
  return pino({ level, base: { pid: process.pid } }, stdout);
}

/** Waits until the log lines written so far are handed to stdout, or `timeoutMs`, whichever is first. */
export function flushLogs(timeoutMs: number): Promise<void> {
  return stdout ? stdout.flush(timeoutMs) : Promise.resolve();
}
