/**
 * `queue:consumers:start --metrics-port <n>` (or METRICS_PORT): the consumer process serves
 * `GET /metrics` of its own application registry (event deliveries by outcome and duration, the
 * database pool, process defaults), with the web process's rules: METRICS_TOKEN as a bearer token,
 * or loopback clients only when it is unset.
 */
import type { Server } from 'node:http';
import { expressModule } from '../framework/webapi/expressModule.js';
import type { Application } from '../bootstrap/Application.js';
import type { Logger } from '../framework/logging/logger.js';
import { metricsEndpoint } from '../framework/observability/metricsEndpoint.js';

export function serveConsumerMetrics(app: Application, port: number, logger: Logger): Promise<Server> {
  const http = expressModule()();
  http.disable('x-powered-by');
  http.get('/metrics', (req, res, next) => {
    metricsEndpoint(app.metrics, app.config.metricsToken)(req, res).catch(next);
  });
  http.use((_req, res) => void res.status(404).json({ message: 'Only /metrics is served here.' }));
  return new Promise((resolve, reject) => {
    const server = http.listen(port, () => {
      logger.info({ port }, 'consumer: serving /metrics');
      resolve(server);
    });
    server.once('error', reject);
  });
}

export function closeServer(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}
