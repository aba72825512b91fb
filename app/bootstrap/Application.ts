/**
 * The runtime of one process and area (`webapi_rest` for the server, `global` for the CLI), started in
 * phases (config/: what the process is configured with; startup/: what is built on it; http/: serving):
 *   1. config/loadConfiguration  the deployment settings, the modules in load order, their merged etc/*.xml
 *   2. startup/openResources     the database pool, the queue, the shared state (each connects on use)
 *   3. startup/buildContainer    every named class imported, the object manager, observers, data interfaces
 *   4. startup/checkRoutes       each webapi.xml route checked against its contract
 *   -- Application.create stops here; the CLI and tests take it from there --
 *   5. startup/upgradeDatabase   migrations, then data installers (app.setupUpgrade())
 *   6. http/serve                the HTTP server listening (startServer.ts, for app/bin/server.ts)
 * A mistake in phases 1-4 is a start-up error naming the file; nothing has listened by then.
 */
import type express from 'express';
import type { RouteDefinition } from '../framework/config/WebapiConfig.js';
import type { ModuleMigrationSource } from '../framework/db/MigrationSource.js';
import { Metrics } from '../framework/observability/Metrics.js';
import { buildRouteHandlers, type RouteHandler, type RouteHandlerSources } from '../framework/webapi/RouteHandler.js';
import type { ApplicationOptions } from './config/ApplicationOptions.js';
import { loadConfiguration, type Configuration } from './config/loadConfiguration.js';
import { createHttpApp, type HttpAppDeps } from './http/HttpApp.js';
import { buildContainer, type Container } from './startup/buildContainer.js';
import { checkRoutes, type CheckedRoutes } from './startup/checkRoutes.js';
import { closeResources, openResources, type Resources } from './startup/openResources.js';
import { migrationSourceOf, upgradeDatabase, type UpgradeResult } from './startup/upgradeDatabase.js';

export type { ApplicationOptions } from './config/ApplicationOptions.js';

export class Application implements HttpAppDeps, RouteHandlerSources {
  static async create(options: ApplicationOptions = {}): Promise<Application> {
    const configuration = loadConfiguration(options);
    const resources = openResources(configuration);
    try {
      const container = await buildContainer(configuration, resources, options);
      const routes = checkRoutes(configuration, container);
      return new Application(configuration, resources, container, routes, buildRouteHandlers({ routes, ...container }));
    } catch (error) {
      await closeResources(resources);
      throw error;
    }
  }

  // What the phases made; each is described on its phase's type (Configuration, Resources, Container).
  readonly logger: Configuration['logger'];
  readonly config: Configuration['config'];
  readonly modules: Configuration['modules'];
  readonly installedModules: Configuration['installedModules'];
  readonly diConfig: Configuration['diConfig'];
  readonly acl: Configuration['acl'];
  readonly database: Resources['database'];
  readonly knex: Resources['knex'];
  readonly queue: Resources['queue'];
  readonly shared: Resources['shared'];
  readonly health: Resources['health'];
  readonly objectManager: Container['objectManager'];
  readonly extensionAttributes: Container['extensionAttributes'];
  readonly metricsRegistry: Container['metricsRegistry'];
  readonly describeService: Container['describeService'];
  private metricsInstance?: Metrics;
  private expressApp?: express.Express;

  private constructor(
    configuration: Configuration,
    private readonly resources: Resources,
    container: Container,
    readonly routes: CheckedRoutes,
    /** Each route's handler (RouteHandler.ts), built once for the web API and the consumer alike. */
    private readonly handlers: ReadonlyMap<RouteDefinition, RouteHandler>,
  ) {
    this.logger = configuration.logger;
    this.config = configuration.config;
    this.modules = configuration.modules;
    this.installedModules = configuration.installedModules;
    this.diConfig = configuration.diConfig;
    this.acl = configuration.acl;
    this.database = resources.database;
    this.knex = resources.knex;
    this.queue = resources.queue;
    this.shared = resources.shared;
    this.health = resources.health;
    this.objectManager = container.objectManager;
    this.extensionAttributes = container.extensionAttributes;
    this.metricsRegistry = container.metricsRegistry;
    this.describeService = container.describeService;
  }

  /** The Prometheus metrics of this application (made with the HTTP app). */
  get metrics(): Metrics {
    return (this.metricsInstance ??= new Metrics(this.knex, this.metricsRegistry));
  }

  /** The Express app: `/rest/...`, `/health`, `/metrics`, `/swagger`. Built once. */
  http(): express.Express {
    return (this.expressApp ??= createHttpApp(this));
  }

  get<T>(id: string | { readonly name: string; readonly __type?: T }): T {
    return this.objectManager.get<T>(typeof id === 'string' ? id : id.name);
  }

  /** A route's handler (RouteHandler.ts): the steps of its calls, built once at start-up. */
  routeHandler(route: RouteDefinition): RouteHandler {
    const handler = this.handlers.get(route);
    if (!handler) throw new Error(`Unknown route ${route.method} ${route.url}`);
    return handler;
  }

  /** The enabled modules' migrations, and the applied ones of disabled or removed modules (kept, never run). */
  migrationSource(): ModuleMigrationSource {
    return migrationSourceOf(this);
  }

  /** Start-up phase 5: pending migrations, then the data installers (upgradeDatabase.ts). */
  setupUpgrade(): Promise<UpgradeResult> {
    return upgradeDatabase(this);
  }

  async close(): Promise<void> {
    await closeResources(this.resources);
  }
}
