/**
 * Boots the runtime: modules -> merged config -> container -> routes. One Application per
 * process and area (`webapi_rest` for the server, `global` for the CLI).
 */
import path from 'node:path';
import type express from 'express';
import type { Knex } from 'knex';
import { readAclConfig, type AclResource } from '../framework/config/AclConfig.js';
import { readDiConfig, type Area, type DiConfig } from '../framework/config/DiConfig.js';
import { readWebapiConfig, type RouteDefinition } from '../framework/config/WebapiConfig.js';
import { EventManager } from '../framework/event/EventManager.js';
import { readEventConfig, type EventConfig } from '../framework/event/EventConfig.js';
import { validateObservers } from '../framework/event/validateObservers.js';
import { EventManagerInterface } from '../framework/event/ManagerInterface.js';
import { ExtensionAttributesProcessor } from '../framework/extension/ExtensionAttributes.js';
import { readExtensionAttributesConfig } from '../framework/extension/ExtensionAttributesConfig.js';
import { loadDataInterfaces } from '../framework/extension/loadDataInterfaces.js';
import type { MethodSpec } from '../framework/contract/Contract.js';
import { requestContext } from '../framework/context/RequestContext.js';
import { ConnectionProvider } from '../framework/db/ConnectionProvider.js';
import { parseDatabaseUrl, type DatabaseSettings } from '../framework/db/dialect.js';
import { migrateLatest, ModuleMigrationSource } from '../framework/db/MigrationSource.js';
import { ClassResolver } from '../framework/di/ClassResolver.js';
import { ObjectManager } from '../framework/di/ObjectManager.js';
import { createLogger, type Logger } from '../framework/logger.js';
import { loadModules, type ModuleDefinition, type ModuleSources } from '../framework/module/ModuleLoader.js';
import { CommandList } from '../framework/console/CommandList.js';
import { DataInstallerList } from '../framework/setup/DataInstallerList.js';
import { StoreResolverInterface } from '../framework/store/StoreResolverInterface.js';
import { AuthorizationInterface } from '../framework/webapi/AuthorizationInterface.js';
import { BulkManagementInterface, OperationManagementInterface } from '../framework/bulk/BulkManagementInterface.js';
import { createQueueConnection } from '../framework/queue/createQueueConnection.js';
import type { QueueConnection } from '../framework/queue/QueueConnection.js';
import type { RouteTarget } from '../framework/webapi/FrontController.js';
import { DatabaseHealth } from '../framework/db/DatabaseHealth.js';
import { Metrics } from '../framework/observability/Metrics.js';
import { systemClock, type Clock } from '../framework/stdlib/Clock.js';
import { readDeploymentConfig, logLevel, type DeploymentConfig, type DeploymentConfigOverrides } from './DeploymentConfig.js';
import { createHttpApp } from './HttpApp.js';
import { createKnex } from './createKnex.js';
import { DIST_ROOT, PROJECT_ROOT } from './paths.js';
import { preloadClasses, referencedNames } from './preloadClasses.js';
import { createRouteTarget } from './routeTarget.js';
import { validateRoutes } from './validateRoutes.js';

export { DEFAULT_DATABASE_URL, type DeploymentConfig } from './DeploymentConfig.js';

export interface ApplicationOptions extends DeploymentConfigOverrides {
  readonly area?: Area;
  /** Where modules live; defaults to `modules/` (sources) and `dist/modules/` (compiled). */
  readonly moduleSources?: readonly ModuleSources[];
  /** `etc/config.json` by default. */
  readonly moduleConfigFile?: string;
  readonly logger?: Logger;
  /** The time as services see it (FrameworkServices.Clock); the system clock by default. */
  readonly clock?: Clock;
}

/** Names the runtime itself provides to di.xml. */
const FRAMEWORK_TYPES = new Map<string, unknown>([
  [StoreResolverInterface.name, StoreResolverInterface],
  [AuthorizationInterface.name, AuthorizationInterface],
  ['Framework\\Console\\CommandList', CommandList],
  ['Framework\\Setup\\DataInstallerList', DataInstallerList],
  [EventManagerInterface.name, EventManagerInterface],
  [BulkManagementInterface.name, BulkManagementInterface],
  [OperationManagementInterface.name, OperationManagementInterface],
]);

export class Application {
  private expressApp?: express.Express;
  private metricsInstance?: Metrics;
  /** Whether writes work; /health reports it. */
  readonly health: DatabaseHealth;
  private readonly targets = new Map<RouteDefinition, RouteTarget>();

  private constructor(
    readonly area: Area,
    readonly modules: readonly ModuleDefinition[],
    readonly config: DeploymentConfig,
    readonly database: DatabaseSettings,
    readonly knex: Knex,
    readonly diConfig: DiConfig,
    readonly objectManager: ObjectManager,
    /** Each validated route with the contract method it calls. */
    readonly routes: ReadonlyMap<RouteDefinition, MethodSpec>,
    readonly acl: ReadonlyMap<string, AclResource>,
    readonly logger: Logger,
    /** etc/events.xml merged for this area. */
    readonly events: EventConfig,
    readonly extensionAttributes: ExtensionAttributesProcessor,
    /** The async web API's queue (`amqp` or `db`); connects on first use. */
    readonly queue: QueueConnection,
  ) {
    this.health = new DatabaseHealth(knex);
  }

  /** The Prometheus metrics of this application (made with the HTTP app). */
  get metrics(): Metrics {
    return (this.metricsInstance ??= new Metrics(this.knex));
  }

  static async create(options: ApplicationOptions = {}): Promise<Application> {
    const area = options.area ?? 'webapi_rest';
    const logger = options.logger ?? createLogger(logLevel('info'));
    const config = readDeploymentConfig(options);
    const sources = options.moduleSources ?? [
      { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
    ];
    const modules = loadModules(sources, options.moduleConfigFile ?? path.join(PROJECT_ROOT, 'etc', 'config.json'));
    const diConfig = readDiConfig(modules, area);
    const routes = area === 'webapi_rest' ? readWebapiConfig(modules) : [];
    const acl = readAclConfig(modules);
    const events = readEventConfig(modules, area);
    const extensionConfig = readExtensionAttributesConfig(modules);
    const eventManager = new EventManager(events);

    const database = parseDatabaseUrl(config.databaseUrl);
    const knex = createKnex(database, logger);
    const connection = new ConnectionProvider(knex, database.dialect);
    const queue = createQueueConnection(
      { amqpUrl: config.amqpUrl, prefix: config.queuePrefix, dbLockTimeoutMs: config.dbQueueLockTimeoutMs },
      knex,
      database.dialect,
      logger,
    );

    const resolver = new ClassResolver(modules, FRAMEWORK_TYPES);
    const names = referencedNames(diConfig, routes, events, FRAMEWORK_TYPES.keys());
    const instances = new Map<string, unknown>([
      ['Framework\\DB\\ConnectionProvider', connection],
      ['Framework\\App\\RequestContext', requestContext],
      ['Framework\\Logger\\LoggerInterface', logger],
      ['Framework\\App\\DeploymentConfig', config],
      ['Framework\\Module\\ModuleList', modules],
      ['Framework\\Acl\\ResourceList', acl],
      [EventManagerInterface.name, eventManager],
      ['Framework\\Stdlib\\Clock', options.clock ?? systemClock],
      ['Framework\\MessageQueue\\QueueConnection', queue],
    ]);
    try {
      await preloadClasses(names, resolver, diConfig, instances);
      const objectManager = new ObjectManager(diConfig, resolver, instances);
      objectManager.bindAll(names.keys());
      eventManager.connect(objectManager);
      validateObservers(events, resolver);
      const extensionAttributes = new ExtensionAttributesProcessor(extensionConfig, await loadDataInterfaces(extensionConfig.referencedNames(), resolver));
      const specs = validateRoutes(routes, resolver, objectManager, acl, logger);
      for (const [route, spec] of specs) specs.set(route, extensionAttributes.extendSpec(spec, `${route.file}: route ${route.method} ${route.url}`));
      return new Application(area, modules, config, database, knex, diConfig, objectManager, specs, acl, logger, events, extensionAttributes, queue);
    } catch (error) {
      await knex.destroy();
      throw error;
    }
  }

  /** The Express app: `/rest/...`, `/health`, `/metrics`, `/swagger`. Built once. */
  http(): express.Express {
    return (this.expressApp ??= createHttpApp(this));
  }

  get<T>(id: string | { readonly name: string; readonly __type?: T }): T {
    return this.objectManager.get<T>(typeof id === 'string' ? id : id.name);
  }

  migrationSource(): ModuleMigrationSource {
    return new ModuleMigrationSource(this.modules);
  }

  /** Applies pending migrations, then the recurring data installers. */
  async setupUpgrade(): Promise<{ migrations: string[]; installers: string[] }> {
    const migrations = await migrateLatest(this.knex, this.migrationSource());
    const installers = await this.get<DataInstallerList>('Framework\\Setup\\DataInstallerList').installAll();
    return { migrations, installers };
  }

  /** The contract call behind a route (routeTarget.ts), built once per route. */
  routeTarget(route: RouteDefinition): RouteTarget {
    let target = this.targets.get(route);
    if (!target) this.targets.set(route, (target = createRouteTarget(this, route)));
    return target;
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.knex.destroy();
  }
}
