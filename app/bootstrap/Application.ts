/**
 * Boots the runtime: modules -> merged config -> container -> routes. One Application per
 * process and area (`webapi_rest` for the server, `global` for the CLI).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type express from 'express';
import type { Knex } from 'knex';
import { readAclConfig, type AclResource } from '../framework/config/AclConfig.js';
import type { Area } from '../framework/config/Area.js';
import { readDiConfig, type DiConfig } from '../framework/config/DiConfig.js';
import { readWebapiConfig, type RouteDefinition } from '../framework/config/WebapiConfig.js';
import { DISPATCH_HOOK_LIST, EventManager } from '../framework/event/EventManager.js';
import { DispatchHookList } from '../framework/event/DispatchHookList.js';
import { ConsumerList } from '../framework/queue/ConsumerList.js';
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
import { groupKept, keptWarning, migrateLatest, moduleMigrationFiles, ModuleMigrationSource, type KeptMigrations } from '../framework/db/MigrationSource.js';
import { appliedMigrationNames, recordMigrationOwners } from '../framework/db/MigrationOwners.js';
import { ClassResolver } from '../framework/di/ClassResolver.js';
import { ObjectManager } from '../framework/di/ObjectManager.js';
import { createLogger, type Logger } from '../framework/logging/logger.js';
import { discoverModules, orderModules, readModuleConfig, type ModuleDefinition, type ModuleSources } from '../framework/module/ModuleLoader.js';
import { CommandList } from '../framework/console/CommandList.js';
import { DataInstallerList } from '../framework/setup/DataInstallerList.js';
import { StoreResolverInterface } from '../framework/store/StoreResolverInterface.js';
import { AuthorizationInterface } from '../framework/webapi/AuthorizationInterface.js';
import { ServiceCallHooksInterface, type DescribedServiceCall, type HookPointList } from '../framework/webapi/ServiceCallHooks.js';
import { DI_AREAS } from '../framework/config/Area.js';
import { isContract } from '../framework/contract/Contract.js';
import { BulkManagementInterface, OperationManagementInterface } from '../framework/bulk/BulkManagementInterface.js';
import { createQueueConnection } from '../framework/queue/createQueueConnection.js';
import type { QueueConnection } from '../framework/queue/QueueConnection.js';
import type { RouteTarget } from '../framework/webapi/RouteTarget.js';
import { DatabaseHealth } from '../framework/db/DatabaseHealth.js';
import { Metrics } from '../framework/observability/Metrics.js';
import { Registry } from 'prom-client';
import { SharedState } from '../framework/shared/SharedState.js';
import { systemClock, type Clock } from '../framework/stdlib/Clock.js';
import { readDeploymentConfig, logLevel, type DeploymentConfig, type DeploymentConfigOverrides } from './DeploymentConfig.js';
import { createHttpApp } from './HttpApp.js';
import { createKnex } from './createKnex.js';
import { moduleConfigFileOf, moduleSourcesOf } from './moduleLocations.js';
import { PROJECT_ROOT } from './paths.js';
import { preloadClasses, referencedNames } from './preloadClasses.js';
import { createRouteTarget } from './routeTarget.js';
import { validateRoutes } from './validateRoutes.js';

export { DEFAULT_DATABASE_URL, type DeploymentConfig } from './DeploymentConfig.js';

export interface ApplicationOptions extends DeploymentConfigOverrides {
  readonly area?: Area;
  /** Where modules live; defaults to `modules/` (sources) and `dist/modules/` (compiled). */
  readonly moduleSources?: readonly ModuleSources[];
  /** `etc/config.json` (or MODULE_CONFIG_FILE) by default. */
  readonly moduleConfigFile?: string;
  readonly logger?: Logger;
  /** The time as services see it (FrameworkServices.Clock); the system clock by default. */
  readonly clock?: Clock;
  /**
   * Class name -> contracts its TypeScript source `implements`, so the contracts' plugins wrap it
   * without @implementsContract; by default what setup:di:compile wrote to
   * generated/metadata/implements.json (none if it is missing).
   */
  readonly implementedContracts?: Readonly<Record<string, readonly string[]>>;
}

/** Names the runtime itself provides to di.xml. */
const FRAMEWORK_TYPES = new Map<string, unknown>([
  [StoreResolverInterface.name, StoreResolverInterface],
  [AuthorizationInterface.name, AuthorizationInterface],
  ['Framework\\Console\\CommandList', CommandList],
  ['Framework\\Setup\\DataInstallerList', DataInstallerList],
  [EventManagerInterface.name, EventManagerInterface],
  [DISPATCH_HOOK_LIST, DispatchHookList],
  ['Framework\\MessageQueue\\ConsumerList', ConsumerList],
  [ServiceCallHooksInterface.name, ServiceCallHooksInterface],
  [BulkManagementInterface.name, BulkManagementInterface],
  [OperationManagementInterface.name, OperationManagementInterface],
]);

const METRICS_REGISTRY = 'Framework\\Observability\\MetricsRegistry';

export class Application {
  private expressApp?: express.Express;
  private metricsInstance?: Metrics;
  /** Whether writes work; /health reports it. */
  readonly health: DatabaseHealth;
  private readonly targets = new Map<RouteDefinition, RouteTarget>();
  /** Where /metrics reads from; modules add their own metrics to it (FrameworkServices.MetricsRegistry). */
  readonly metricsRegistry: Registry;

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
    /** Every module of the module folders, enabled or not. */
    readonly installedModules: readonly ModuleDefinition[],
    /** Limits shared by every process through Redis (REDIS_URL), or kept in memory. */
    readonly shared: SharedState,
  ) {
    this.health = new DatabaseHealth(knex);
    this.metricsRegistry = objectManager.get<Registry>(METRICS_REGISTRY);
  }

  /** The Prometheus metrics of this application (made with the HTTP app). */
  get metrics(): Metrics {
    return (this.metricsInstance ??= new Metrics(this.knex, this.metricsRegistry));
  }

  static async create(options: ApplicationOptions = {}): Promise<Application> {
    const area = options.area ?? 'webapi_rest';
    const logger = options.logger ?? createLogger(logLevel('info'));
    const config = readDeploymentConfig(options);
    const installed = discoverModules(moduleSourcesOf(options));
    const modules = orderModules(installed, readModuleConfig(moduleConfigFileOf(options)));
    const diConfig = readDiConfig(modules, area);
    const routes = area === 'webapi_rest' ? readWebapiConfig(modules) : [];
    const acl = readAclConfig(modules);
    const events = readEventConfig(modules, area);
    const extensionConfig = readExtensionAttributesConfig(modules);
    const eventManager = new EventManager(events);

    const database = parseDatabaseUrl(config.databaseUrl, config.databaseTimeouts);
    const knex = createKnex(database, logger);
    const connection = new ConnectionProvider(knex, database.dialect);
    const queue = createQueueConnection(
      { amqpUrl: config.amqpUrl, prefix: config.queuePrefix, dbLockTimeoutMs: config.dbQueueLockTimeoutMs, amqpTimeouts: config.amqpTimeouts },
      knex,
      database.dialect,
      logger,
    );

    const shared = new SharedState(config.redis, logger);

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
      [METRICS_REGISTRY, new Registry()],
      ['Framework\\Webapi\\HookPointList', hookPoints(modules, resolver)],
      ['Framework\\Cache\\SharedState', shared],
    ]);
    try {
      await preloadClasses(names, resolver, diConfig, instances);
      const objectManager = new ObjectManager(diConfig, resolver, instances, options.implementedContracts ?? readImplementedContracts());
      objectManager.bindAll(names.keys());
      eventManager.connect(objectManager);
      validateObservers(events, resolver);
      const extensionAttributes = new ExtensionAttributesProcessor(extensionConfig, await loadDataInterfaces(extensionConfig.referencedNames(), resolver));
      const specs = validateRoutes(routes, resolver, objectManager, acl, logger);
      for (const [route, spec] of specs) specs.set(route, extensionAttributes.extendSpec(spec, `${route.file}: route ${route.method} ${route.url}`));
      return new Application(area, modules, config, database, knex, diConfig, objectManager, specs, acl, logger, events, extensionAttributes, queue, installed, shared);
    } catch (error) {
      await shared.close();
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

  /** The enabled modules' migrations, and the applied ones of disabled or removed modules (kept, never run). */
  migrationSource(): ModuleMigrationSource {
    return new ModuleMigrationSource(this.modules, { installed: this.installedModules, knex: this.knex });
  }

  /**
   * Applies pending migrations, then the recurring data installers. A disabled or removed module's
   * applied migrations (and so its tables) are kept: each such module is named in a warning and in `kept`.
   */
  async setupUpgrade(): Promise<{ migrations: string[]; installers: string[]; kept: KeptMigrations[] }> {
    const source = this.migrationSource();
    const migrations = await this.withMigrationKnex((knex) => migrateLatest(knex, source));
    await this.recordMigrationOwners();
    const kept = groupKept(await source.kept());
    for (const group of kept) this.logger.warn({ module: group.module, migrations: group.migrations }, keptWarning(group));
    const installers = await this.get<DataInstallerList>('Framework\\Setup\\DataInstallerList').installAll();
    return { migrations, installers, kept };
  }

  /** Records which module each applied migration belongs to, while its module's folder is there to tell (MigrationOwners.ts). */
  private async recordMigrationOwners(): Promise<void> {
    const applied = new Set(await appliedMigrationNames(this.knex));
    const owners = new Map<string, string>();
    for (const module of this.installedModules) {
      for (const migration of moduleMigrationFiles(module)) if (applied.has(migration.name)) owners.set(migration.name, module.name);
    }
    await recordMigrationOwners(this.knex, owners);
  }

  /**
   * Migrations may rebuild a large table: on a server database they run on a pool of their own
   * without DB_STATEMENT_TIMEOUT_MS, which bounds requests. SQLite has no statement timeout.
   */
  private async withMigrationKnex<T>(run: (knex: Knex) => Promise<T>): Promise<T> {
    if (this.database.dialect === 'sqlite' || this.config.databaseTimeouts.statementMs === 0) return run(this.knex);
    const knex = createKnex(parseDatabaseUrl(this.config.databaseUrl, { ...this.config.databaseTimeouts, statementMs: 0 }), this.logger);
    try {
      return await run(knex);
    } finally {
      await knex.destroy();
    }
  }

  /** The contract call behind a route (routeTarget.ts), built once per route. */
  routeTarget(route: RouteDefinition): RouteTarget {
    let target = this.targets.get(route);
    if (!target) this.targets.set(route, (target = createRouteTarget(this, route)));
    return target;
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.shared.close();
    await this.knex.destroy();
  }
}

/** What `Framework\Webapi\HookPointList` answers: read from the files when asked, in any area. */
function hookPoints(modules: readonly ModuleDefinition[], resolver: ClassResolver): HookPointList {
  return {
    async serviceCalls() {
      const calls = new Map<string, DescribedServiceCall>();
      for (const route of readWebapiConfig(modules)) {
        const key = `${route.serviceClass}::${route.serviceMethod}`;
        if (calls.has(key)) continue;
        const contract = await resolver.load(route.serviceClass, route.file);
        const spec = isContract(contract) ? contract.methods[route.serviceMethod] : undefined;
        const returns = typeof spec?.returns === 'string' ? spec.returns : spec?.returns?.name;
        calls.set(key, {
          serviceClass: route.serviceClass,
          method: route.serviceMethod,
          params: spec?.params.map((param) => param.name) ?? [],
          types: spec?.params.map((param) => param.schema.type ?? 'any') ?? [],
          ...(returns ? { returns } : {}),
        });
      }
      return [...calls.values()];
    },
    eventNames() {
      const names = new Set<string>();
      for (const area of ['global' as const, ...DI_AREAS]) for (const name of readEventConfig(modules, area).events.keys()) names.add(name);
      return [...names].sort();
    },
  };
}

/** generated/metadata/implements.json, written by setup:di:compile (`npm run build`); empty if absent. */
function readImplementedContracts(): Record<string, string[]> {
  const file = path.join(PROJECT_ROOT, 'generated', 'metadata', 'implements.json');
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
}
