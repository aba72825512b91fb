/**
 * The Express app: the request observer, `/rest` on the front controller (and the async web API),
 * `/health`, `/metrics`, `/swagger`, and a JSON 404 for anything else. It takes what it mounts
 * (HttpAppDeps), not the Application that has it.
 */
import type express from 'express';
import type { Knex } from 'knex';
import { BulkManagementInterface } from '../../framework/bulk/BulkManagementInterface.js';
import type { RouteDefinition } from '../../framework/config/WebapiConfig.js';
import type { MethodSpec } from '../../framework/contract/Contract.js';
import type { DatabaseHealth } from '../../framework/db/DatabaseHealth.js';
import { UnitOfWork } from '../../framework/db/UnitOfWork.js';
import type { ObjectManager } from '../../framework/di/ObjectManager.js';
import type { ExtensionAttributesProcessor } from '../../framework/extension/ExtensionAttributes.js';
import type { Logger } from '../../framework/logging/logger.js';
import type { Metrics } from '../../framework/observability/Metrics.js';
import { metricsEndpoint } from '../../framework/observability/metricsEndpoint.js';
import { requestObserver } from '../../framework/observability/RequestObserver.js';
import { traceOf } from '../../framework/observability/RequestTrace.js';
import type { SharedState } from '../../framework/shared/SharedState.js';
import { StoreResolverInterface } from '../../framework/store/StoreResolverInterface.js';
import { AsynchronousRequestProcessor } from '../../framework/webapi-async/AsynchronousRequestProcessor.js';
import { AsynchronousSchemaRequestProcessor } from '../../framework/webapi-async/AsynchronousSchemaRequestProcessor.js';
import { generateAsyncSchema } from '../../framework/webapi-async/AsyncSchemaGenerator.js';
import { AuthorizationInterface } from '../../framework/webapi/AuthorizationInterface.js';
import { ErrorRenderer } from '../../framework/webapi/ErrorRenderer.js';
import { expressModule } from '../../framework/webapi/expressModule.js';
import { FrontController } from '../../framework/webapi/FrontController.js';
import { REQUEST_PROCESSOR_POOL, RequestProcessorPool } from '../../framework/webapi/RequestProcessorPool.js';
import { RestRequestChecks } from '../../framework/webapi/RestRequestChecks.js';
import type { RouteHandler } from '../../framework/webapi/RouteHandler.js';
import { RouteRegistry } from '../../framework/webapi/RouteRegistry.js';
import { generateSchema } from '../../framework/webapi/SchemaGenerator.js';
import { SchemaRequestProcessor, type SchemaSource } from '../../framework/webapi/SchemaRequestProcessor.js';
import { swaggerPage } from '../../framework/webapi/SwaggerPage.js';
import { SynchronousRequestProcessor } from '../../framework/webapi/SynchronousRequestProcessor.js';
import type { DeploymentConfig } from '../config/DeploymentConfig.js';
import { healthEndpoint } from './healthEndpoint.js';

/** What the HTTP app is built from; an Application has all of it. */
export interface HttpAppDeps {
  readonly config: Pick<
    DeploymentConfig,
    | 'trustProxy'
    | 'developerMode'
    | 'bodyLimit'
    | 'bulkBodyLimit'
    | 'bulkMaxOperations'
    | 'maxJsonDepth'
    | 'bodyTimeoutMs'
    | 'metricsToken'
  >;
  readonly logger: Logger;
  /** Each checked route with the contract method it calls (start-up phase 4). */
  readonly routes: ReadonlyMap<RouteDefinition, MethodSpec>;
  /** A route's handler (RouteHandler.ts), the same one for the synchronous and the async web API (and the consumer). */
  routeHandler(route: RouteDefinition): RouteHandler;
  /** For the schemas (`/rest/<scope>/schema`). */
  readonly extensionAttributes: ExtensionAttributesProcessor;
  /** A service contract's description, for the schema's tags. */
  describeService?(serviceClass: string): string | undefined;
  /** Where the services some module may serve (store resolution, authorization, bulks) are looked up. */
  readonly objectManager: Pick<ObjectManager, 'isBound' | 'get'>;
  /** The unit of work's transactions and /health's probe. */
  readonly knex: Knex;
  readonly health: DatabaseHealth;
  readonly shared: SharedState;
  readonly metrics: Metrics;
}

export function createHttpApp(deps: HttpAppDeps): express.Express {
  const { config, logger, objectManager } = deps;
  const app = expressModule()();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.use(requestObserver(logger, deps.metrics));
  const errors = new ErrorRenderer(logger, config.developerMode);
  const controller = new FrontController({
    processors: requestProcessors(deps),
    stores: optional(objectManager, StoreResolverInterface.name),
    errors,
    health: deps.health,
  });
  app.get('/health', healthEndpoint(deps.knex, deps.health, deps.shared, logger));
  app.get('/metrics', (req, res, next) => {
    traceOf(res).route = '/metrics';
    metricsEndpoint(deps.metrics, config.metricsToken)(req, res).catch(next);
  });
  app.use('/rest', controller.handle);
  app.use('/swagger', swaggerPage());
  app.use((_req, res) => {
    res.status(404).json({ message: 'Request does not match any route.' });
  });
  app.use(lastErrorHandler(errors, logger));
  return app;
}

/**
 * What Express would otherwise answer with its own HTML page (a stack trace outside production):
 * any error that reaches Express, answered as the front controller answers one, Magento's JSON
 * 500 naming a report id; should rendering it fail too, a fixed JSON 500.
 */
function lastErrorHandler(errors: ErrorRenderer, logger: Logger): express.ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    try {
      const trace = traceOf(res);
      const rendered = errors.render(error, trace.requestId);
      if (rendered.reportId) trace.reportId = rendered.reportId;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const json = JSON.stringify(rendered.body);
      res.writeHead(rendered.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(json),
      });
      res.end(json);
    } catch (failure) {
      logger.error({ err: failure }, 'answering an error failed');
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ message: 'Internal Error. Details are available in Magento log file.' }));
      }
    }
  };
}

/**
 * The request processors of `/rest`: those modules add through di.xml
 * (`Framework\\Webapi\\Rest\\RequestProcessorPool`), then the framework's own, in Magento's
 * order: the schema, the async schema, the async web API, the synchronous routes.
 */
function requestProcessors(deps: HttpAppDeps): RequestProcessorPool {
  const { config, objectManager, routes } = deps;
  const checks = new RestRequestChecks({
    authorization: optional(objectManager, AuthorizationInterface.name),
    bodyLimit: config.bodyLimit,
    bulkBodyLimit: config.bulkBodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    bodyTimeoutMs: config.bodyTimeoutMs,
  });
  const registry = new RouteRegistry<RouteHandler>();
  for (const route of routes.keys()) registry.add(route, deps.routeHandler(route));
  const bulks = optional<BulkManagementInterface>(objectManager, BulkManagementInterface.name);
  const schemas = new Map<string, Record<string, unknown>>();
  const schema: SchemaSource = (scopeCode, services, host) => {
    const describeService = deps.describeService?.bind(deps);
    let document: Record<string, unknown> | undefined;
    // Every service's document is kept per scope; a document of chosen services is made each time (small).
    if (services) document = generateSchema(routes, scopeCode, deps.extensionAttributes, { services, describeService });
    else if (!(document = schemas.get(scopeCode))) {
      document = generateSchema(routes, scopeCode, deps.extensionAttributes, { describeService });
      schemas.set(scopeCode, document);
    }
    // Magento's document names the host it was asked on, after `info`.
    const { swagger, info, ...rest } = document;
    return host ? { swagger, info, host, ...rest } : document;
  };
  const asyncSchemas = new Map<string, unknown>();
  const asyncSchema = (scopeCode: string) => {
    let document = asyncSchemas.get(scopeCode);
    if (!document) {
      document = generateAsyncSchema(routes, scopeCode, deps.extensionAttributes);
      asyncSchemas.set(scopeCode, document);
    }
    return document;
  };
  const configured = objectManager.isBound(REQUEST_PROCESSOR_POOL)
    ? objectManager.get<RequestProcessorPool>(REQUEST_PROCESSOR_POOL)
    : new RequestProcessorPool();
  return configured.withDefaults({
    syncSchema: new SchemaRequestProcessor(schema),
    asyncSchema: new AsynchronousSchemaRequestProcessor(asyncSchema, bulks),
    async: new AsynchronousRequestProcessor(
      [...routes.keys()].map((route) => deps.routeHandler(route)),
      bulks,
      checks,
      config.bulkMaxOperations,
    ),
    sync: new SynchronousRequestProcessor({
      routes: registry,
      checks,
      unitOfWork: new UnitOfWork(deps.knex),
      health: deps.health,
    }),
  });
}

/** A service some module may serve (store resolution, authorization, bulks), looked up on first use. */
function optional<T>(objectManager: HttpAppDeps['objectManager'], name: string): () => T | null {
  let cached: T | null | undefined;
  return () => (cached ??= objectManager.isBound(name) ? objectManager.get<T>(name) : null);
}
