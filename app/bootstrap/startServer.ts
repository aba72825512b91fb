/**
 * What `npm start` does before it waits for requests: the Application (start-up phases 1-4: the
 * configuration, the resources, the container, the routes checked), the database upgrade (5), and
 * only then the listener (6). A mistake anywhere before it stops start-up with no port bound, and
 * what was opened is closed again.
 */
import type http from 'node:http';
import { Application } from './Application.js';
import type { ApplicationOptions } from './config/ApplicationOptions.js';
import type { ServerSettings } from './config/DeploymentConfig.js';
import { serve } from './http/serve.js';

export interface StartedServer {
  readonly app: Application;
  readonly server: http.Server;
}

export async function startServer(
  options: ApplicationOptions,
  address: Pick<ServerSettings, 'port' | 'host'>,
): Promise<StartedServer> {
  const app = await Application.create(options);
  try {
    const { migrations } = await app.setupUpgrade();
    if (migrations.length) app.logger.info({ migrations }, 'applied migrations');
    return { app, server: await serve(app, address) };
  } catch (error) {
    await app.close();
    throw error;
  }
}
