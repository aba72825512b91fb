/**
 * `npm start`: the start-up phases (checks the configuration, applies pending migrations and data
 * installers; app/bootstrap/startServer.ts), then serves the REST API.
 * SIGTERM/SIGINT: stop accepting, let requests in flight finish (SHUTDOWN_GRACE_MS at most),
 * close the pool, flush the logs (bounded), exit 0. Whatever hangs (a pool that will not close,
 * a stdout nobody reads), the process is gone within the grace period plus one second; a second
 * signal exits at once.
 */
import 'reflect-metadata';
import type http from 'node:http';
import type { Application } from '../bootstrap/Application.js';
import { readServerSettings } from '../bootstrap/config/DeploymentConfig.js';
import { failedBuild } from '../bootstrap/startup/buildState.js';
import { guardProcess } from '../bootstrap/processGuard.js';
import { startServer } from '../bootstrap/startServer.js';
import { ConfigError } from '../framework/xml/xml.js';
import { DatabaseStorageError } from '../framework/db/MigrationSource.js';
import { flushLogs } from '../framework/logging/logger.js';

const { port, host, shutdownGraceMs: SHUTDOWN_GRACE_MS } = readServerSettings();
/** What the shutdown may take beyond the grace period: closing the pool, flushing the logs. */
const SHUTDOWN_SLACK_MS = 1_000;
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

async function main(): Promise<void> {
  const failed = failedBuild();
  if (failed) throw new ConfigError(failed);
  // Start-up phases 1-6 (app/bootstrap/Application.ts): nothing listens before the routes are checked.
  const { app, server } = await startServer({ area: 'webapi_rest' }, { port, host });
  // No error escaping a request ends the process (logged; app/bootstrap/processGuard.ts).
  guardProcess(app.logger);
  stopOnSignals(app, server);
}

/** SIGTERM/SIGINT: a graceful shutdown; a second signal exits at once. */
function stopOnSignals(app: Application, server: http.Server): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // The operator asked twice: do not wait any longer.
      process.exit(SIGNAL_EXIT_CODES[signal] ?? 1);
    }
    stopping = true;
    app.logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.logger.warn('requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // The hard bound: nothing (a pool that never closes, a log reader that never reads) keeps the process past it.
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + SHUTDOWN_SLACK_MS).unref();
    // Keep-alive connections close as soon as their request in flight is answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(async () => {
      clearInterval(sweep);
      await app.close().catch((error: unknown) => app.logger.error({ err: error }, 'closing the database pool failed'));
      app.logger.info('stopped');
      await flushLogs(SHUTDOWN_SLACK_MS / 2);
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  server.on('request', (_req, res: { shouldKeepAlive: boolean }) => {
    if (stopping) res.shouldKeepAlive = false;
  });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error instanceof ConfigError || error instanceof DatabaseStorageError ? error.message : error.stack) : String(error)}\n`,
  );
  process.exit(1);
});
