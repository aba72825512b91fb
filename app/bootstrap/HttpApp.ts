/**
 * The Express app of an Application: the request observer, `/rest` on the front controller (and
 * the async web API), `/health`, `/metrics`, `/swagger`, and a JSON 404 for anything else.
 */
import express from 'express';
import { BulkManagementInterface } from '../framework/bulk/BulkManagementInterface.js';
import type { RouteDefinition } from '../framework/config/WebapiConfig.js';
import { UnitOfWork } from '../framework/db/UnitOfWork.js';
import type { ObjectManager } from '../framework/di/ObjectManager.js';
import { metricsEndpoint } from '../framework/observability/metricsEndpoint.js';
import { requestObserver } from '../framework/observability/RequestObserver.js';
import { traceOf } from '../framework/observability/RequestTrace.js';
import { StoreResolverInterface } from '../framework/store/StoreResolverInterface.js';
import { AsyncController } from '../framework/webapi/AsyncController.js';
import { AuthorizationInterface } from '../framework/webapi/AuthorizationInterface.js';
import { ErrorRenderer } from '../framework/webapi/ErrorRenderer.js';
import { FrontController } from '../framework/webapi/FrontController.js';
import type { RouteTarget } from '../framework/webapi/RouteTarget.js';
import { RouteRegistry } from '../framework/webapi/RouteRegistry.js';
import { generateAsyncSchema, generateSchema } from '../framework/webapi/SchemaGenerator.js';
import { swaggerPage } from '../framework/webapi/SwaggerPage.js';
import type { Application } from './Application.js';
import { healthEndpoint } from './healthEndpoint.js';

export function createHttpApp(application: Application): express.Express {
  const { config, logger, objectManager, routes } = application;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.use(requestObserver(logger, application.metrics));
  const schemas = new Map<string, unknown>();
  const asyncSchemas = new Map<string, unknown>();
  const registry = new RouteRegistry<RouteTarget>();
  for (const route of routes.keys()) registry.add(route, application.routeTarget(route));
  const controller = new FrontController({
    routes: registry,
    stores: optional(objectManager, StoreResolverInterface.name),
    authorization: optional(objectManager, AuthorizationInterface.name),
    unitOfWork: new UnitOfWork(application.knex),
    errors: new ErrorRenderer(logger, config.developerMode),
    bodyLimit: config.bodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    bodyTimeoutMs: config.bodyTimeoutMs,
    health: application.health,
    async: (checks) =>
      new AsyncController(
        [...routes.keys()].map((route) => [route, application.routeTarget(route)] as [RouteDefinition, RouteTarget]),
        optional(objectManager, BulkManagementInterface.name),
        checks,
      ),
    schema: (scopeCode) => {
      let document = schemas.get(scopeCode);
      if (!document) schemas.set(scopeCode, (document = generateSchema(routes, scopeCode, application.extensionAttributes)));
      return document;
    },
    asyncSchema: (scopeCode) => {
      let document = asyncSchemas.get(scopeCode);
      if (!document) {
        document = generateAsyncSchema(routes, scopeCode, application.extensionAttributes);
        asyncSchemas.set(scopeCode, document);
      }
      return document;
    },
  });
  app.get('/health', healthEndpoint(application.knex, application.health, application.shared, logger));
  app.get('/metrics', (req, res, next) => {
    traceOf(res).route = '/metrics';
    metricsEndpoint(application.metrics, config.metricsToken)(req, res).catch(next);
  });
  app.use('/rest', controller.handle);
  app.use('/swagger', swaggerPage());
  app.use((_req, res) => {
    res.status(404).json({ message: 'Request does not match any route.' });
  });
  return app;
}

/** A service some module may serve (store resolution, authorization, bulks), looked up on first use. */
function optional<T>(objectManager: ObjectManager, name: string): () => T | null {
  let cached: T | null | undefined;
  return () => (cached ??= objectManager.isBound(name) ? objectManager.get<T>(name) : null);
}
