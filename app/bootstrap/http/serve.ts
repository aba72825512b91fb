/**
 * Start-up phase 6 (the server only): the HTTP server (HttpServer.ts) around the Express app
 * (HttpApp.ts), listening on PORT and HOST. Answers once it listens; a port it cannot bind rejects.
 */
import type http from 'node:http';
import { redactUrl } from '../../framework/db/dialect.js';
import type { DeploymentConfig, ServerSettings } from '../config/DeploymentConfig.js';
import { createHttpServer, type HttpServerSource } from './HttpServer.js';
import type { Configuration } from '../config/loadConfiguration.js';

/** What serving needs; an Application has all of it. */
export interface Servable extends HttpServerSource, Pick<Configuration, 'logger' | 'modules'> {
  readonly config: HttpServerSource['config'] & Pick<DeploymentConfig, 'databaseUrl'>;
}

export async function serve(app: Servable, address: Pick<ServerSettings, 'port' | 'host'>): Promise<http.Server> {
  const { port, host } = address;
  const server = createHttpServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (host) server.listen(port, host, listening);
    else server.listen(port, listening);
  });
  const bound = server.address();
  const actualPort = typeof bound === 'object' && bound ? bound.port : port;
  const database = redactUrl(app.config.databaseUrl);
  const modules = app.modules.map((m) => m.name);
  app.logger.info({ port: actualPort, database, modules }, `listening on port ${actualPort}`);
  return server;
}
