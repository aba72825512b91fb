/**
 * `npm start`: applies pending migrations and data installers, then serves the REST API.
 * SIGTERM/SIGINT: stop accepting, let requests in flight finish, close the pool, exit 0.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { Application } from '../bootstrap/Application.js';
import { redactUrl } from '../framework/db/dialect.js';

const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);

async function main(): Promise<void> {
  const app = await Application.create({ area: 'webapi_rest' });
  const { migrations } = await app.setupUpgrade();
  if (migrations.length) app.logger.info({ migrations }, 'applied migrations');
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST;
  const onListening = () => {
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    app.logger.info({ port: actualPort, database: redactUrl(app.config.databaseUrl), modules: app.modules.map((m) => m.name) }, `listening on port ${actualPort}`);
  };
  const server: Server = host ? app.http().listen(port, host, onListening) : app.http().listen(port, onListening);
  server.keepAliveTimeout = 5_000;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.logger.warn('requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Keep-alive connections close as soon as their request in flight is answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(async () => {
      clearInterval(sweep);
      await app.close();
      app.logger.info('stopped');
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
  process.stderr.write(`${error instanceof Error ? (error.name === 'ConfigError' ? error.message : error.stack) : String(error)}\n`);
  process.exit(1);
});
