/**
 * The runtime of one process and area (`webapi_rest` for the server, `global` for the CLI).
 * Start-up runs in phases, one file each in this folder, in this order:
 *
 *   1. loadConfiguration  the deployment settings, the modules in load order, their merged etc/*.xml
 *   2. openResources      the database pool, the queue, the shared state (each connects on use)
 *   3. buildContainer     every named class imported, the object manager, observers, data interfaces
 *   4. checkRoutes        each webapi.xml route checked against its contract
 *   -- Application.create stops here; the CLI and tests take it from there --
 *   5. upgradeDatabase    migrations, then data installers (app.setupUpgrade())
 *   6. serve              the HTTP server listening (startServer.ts, for app/bin/server.ts)
 *
 * A mistake in phases 1-4 is a start-up error naming the file; nothing has listened by then.
 */
import type express from 'express';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { AclResource } from '../framework/config/AclConfig.js';
import type { Area } from '../framework/config/Area.js';
import type { DiConfig } from '../framework/config/DiConfig.js';
import type { RouteDefinition } from '../framework/config/WebapiConfig.js';
import { isContract, type MethodSpec } from '../framework/contract/Contract.js';
import { DatabaseHealth } from '../framework/db/DatabaseHealth.js';
import type { DatabaseSettings } from '../framework/db/dialect.js';
import type { ModuleMigrationSource } from '../framework/db/MigrationSource.js';
import type { ClassResolver } from '../framework/di/ClassResolver.js';
import type { ObjectManager } from '../framework/di/ObjectManager.js';
import type { EventConfig } from '../framework/event/EventConfig.js';
import type { ExtensionAttributesProcessor } from '../framework/extension/ExtensionAttributes.js';
import type { Logger } from '../framework/logging/logger.js';
import type { ModuleDefinition } from '../framework/module/ModuleLoader.js';
import { Metrics } from '../framework/observability/Metrics.js';
import type { QueueConnection } from '../framework/queue/QueueConnection.js';
import type { SharedState } from '../framework/shared/SharedState.js';
import { buildRouteHandlers, type RouteHandler, type RouteHandlerSources } from '../framework/webapi/RouteHandler.js';
import type { ApplicationOptions } from './ApplicationOptions.js';
import type { DeploymentConfig } from './DeploymentConfig.js';
import { METRICS_REGISTRY } from './frameworkServices.js';
import { createHttpApp, type HttpAppDeps } from './HttpApp.js';
import { buildContainer, type Container } from './buildContainer.js';
import { checkRoutes } from './checkRoutes.js';
import { loadConfiguration, type Configuration } from './loadConfiguration.js';
import { closeResources, openResources, type Resources } from './openResources.js';
import { migrationSourceOf, upgradeDatabase, type UpgradeResult, type UpgradeSubject } from './upgradeDatabase.js';

export type { ApplicationOptions } from './ApplicationOptions.js';
export type { DeploymentConfig } from './DeploymentConfig.js';

export class Application implements HttpAppDeps, RouteHandlerSources, UpgradeSubject {
  static async create(options: ApplicationOptions = {}): Promise<Application> {
    const configuration = loadConfiguration(options);
    const resources = openResources(configuration);
    try {
      const container = await buildContainer(configuration, resources, options);
      const routes = checkRoutes(configuration, container);
      return new Application(configuration, resources, container, routes);
    } catch (error) {
      await closeResources(resources);
      throw error;
    }
  }

  readonly area: Area;
  readonly logger: Logger;
  readonly config: DeploymentConfig;
  /** The enabled modules, in load order. */
  readonly modules: readonly ModuleDefinition[];
  /** Every module of the module folders, enabled or not. */
  readonly installedModules: readonly ModuleDefinition[];
  readonly diConfig: DiConfig;
  readonly acl: ReadonlyMap<string, AclResource>;
  /** etc/events.xml merged for this area. */
  readonly events: EventConfig;
  readonly database: DatabaseSettings;
  readonly knex: Knex;
  /** The async web API's queue (`amqp` or `db`); connects on first use. */
  readonly queue: QueueConnection;
  /** Limits shared by every process through Redis (REDIS_URL), or kept in memory. */
  readonly shared: SharedState;
  readonly objectManager: ObjectManager;
  readonly extensionAttributes: ExtensionAttributesProcessor;
  /** Whether writes work; /health reports it. */
  readonly health: DatabaseHealth;
  /** Where /metrics reads from; modules add their own metrics to it (FrameworkServices.MetricsRegistry). */
  readonly metricsRegistry: Registry;
  private metricsInstance?: Metrics;
  private expressApp?: express.Express;
  /** Each route's handler (RouteHandler.ts), built once here for the web API and the consumer alike. */
  private readonly handlers: ReadonlyMap<RouteDefinition, RouteHandler>;
  private readonly resolver: ClassResolver;

  private constructor(
    configuration: Configuration,
    private readonly resources: Resources,
    container: Container,
    /** Each checked route with the contract method it calls. */
    readonly routes: ReadonlyMap<RouteDefinition, MethodSpec>,
  ) {
    this.area = configuration.area;
    this.logger = configuration.logger;
    this.config = configuration.config;
    this.modules = configuration.modules;
    this.installedModules = configuration.installedModules;
    this.diConfig = configuration.diConfig;
    this.acl = configuration.acl;
    this.events = configuration.events;
    this.database = resources.database;
    this.knex = resources.knex;
    this.queue = resources.queue;
    this.shared = resources.shared;
    this.objectManager = container.objectManager;
    this.extensionAttributes = container.extensionAttributes;
    this.resolver = container.resolver;
    this.health = new DatabaseHealth(this.knex);
    this.metricsRegistry = this.objectManager.get<Registry>(METRICS_REGISTRY);
    this.handlers = buildRouteHandlers(this);
  }

  /** The Prometheus metrics of this application (made with the HTTP app). */
  get metrics(): Metrics {
    return (this.metricsInstance ??= new Metrics(this.knex, this.metricsRegistry));
  }

  /** A service contract's description (defineContract's `description`), for the schema's tags. */
  describeService(serviceClass: string): string | undefined {
    const value = this.resolver.has(serviceClass) ? this.resolver.get(serviceClass) : undefined;
    return isContract(value) ? value.description : undefined;
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
