import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs to stdout (pino). LOG_LEVEL sets the level; tests default to silent. */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { pid: process.pid } });
}
