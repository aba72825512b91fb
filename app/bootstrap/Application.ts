/**
 * Boots the runtime: modules -> merged config -> container -> routes. One Application per
 * process and area (`webapi_rest` for the server, `global` for the CLI).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import knexFactory, { type Knex } from 'knex';
import { readAclConfig, type AclResource } from '../framework/config/AclConfig.js';
import { readDiConfig, type Area, type DiConfig } from '../framework/config/DiConfig.js';
import { readWebapiConfig, type RouteDefinition } from '../framework/config/WebapiConfig.js';
import { ConfigError } from '../framework/config/xml.js';
import { isContract, type MethodSpec } from '../framework/contract/Contract.js';
import { EventManager } from '../framework/event/EventManager.js';
import { readEventConfig, type EventConfig } from '../framework/event/EventConfig.js';
import { validateObservers } from '../framework/event/validateObservers.js';
import { EventManagerInterface } from '../framework/event/ManagerInterface.js';
import { dataInterfaceName, ExtensionAttributesProcessor } from '../framework/extension/ExtensionAttributes.js';
import { readExtensionAttributesConfig } from '../framework/extension/ExtensionAttributesConfig.js';
import { loadDataInterfaces } from '../framework/extension/loadDataInterfaces.js';
import { requestContext } from '../framework/context/RequestContext.js';
import { ConnectionProvider } from '../framework/db/ConnectionProvider.js';
import { parseDatabaseUrl, type DatabaseSettings } from '../framework/db/dialect.js';
import { migrateLatest, ModuleMigrationSource } from '../framework/db/MigrationSource.js';
import { UnitOfWork } from '../framework/db/UnitOfWork.js';
import { ClassResolver } from '../framework/di/ClassResolver.js';
import { ObjectManager } from '../framework/di/ObjectManager.js';
import { injectionPoints } from '../framework/di/constructorParameters.js';
import { createLogger, type Logger } from '../framework/logger.js';
import { loadModules, type ModuleDefinition, type ModuleSources } from '../framework/module/ModuleLoader.js';
import { CommandList } from '../framework/console/CommandList.js';
import { DataInstallerList } from '../framework/setup/DataInstallerList.js';
import { StoreResolverInterface } from '../framework/store/StoreResolverInterface.js';
import { AuthorizationInterface } from '../framework/webapi/AuthorizationInterface.js';
import { ErrorRenderer } from '../framework/webapi/ErrorRenderer.js';
import { FrontController, type RouteTarget } from '../framework/webapi/FrontController.js';
import { AsyncController } from '../framework/webapi/AsyncController.js';
import { BulkManagementInterface, OperationManagementInterface } from '../framework/bulk/BulkManagementInterface.js';
import { createQueueConnection } from '../framework/queue/createQueueConnection.js';
import type { QueueConnection } from '../framework/queue/QueueConnection.js';
import { InputMapper } from '../framework/webapi/InputMapper.js';
import { RouteRegistry } from '../framework/webapi/RouteRegistry.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../framework/webapi/InputSafety.js';
import { DatabaseHealth } from '../framework/db/DatabaseHealth.js';
import { Metrics } from '../framework/observability/Metrics.js';
import { metricsEndpoint } from '../framework/observability/metricsEndpoint.js';
import { requestObserver } from '../framework/observability/RequestObserver.js';
import { traceOf } from '../framework/observability/RequestTrace.js';
import { generateSchema } from '../framework/webapi/SchemaGenerator.js';
import { swaggerPage } from '../framework/webapi/SwaggerPage.js';
import type { AdminLoginSettings, PasswordHashingSettings } from '../framework/security/settings.js';
import { systemClock, type Clock } from '../framework/stdlib/Clock.js';
import { DIST_ROOT, PROJECT_ROOT } from './paths.js';
import { defaultHashConcurrency, scryptCost, trustProxy, wholeNumber } from './settings.js';

export interface DeploymentConfig {
  readonly databaseUrl: string;
  readonly developerMode: boolean;
  /** Largest request body, in bytes (1 MiB by default). */
  readonly bodyLimit: number;
  /** Express's `trust proxy` (TRUST_PROXY): when X-Forwarded-Proto/-Host name the URL the client called. */
  readonly trustProxy: boolean | number | string;
  /** CRYPT_KEY: 64 hex characters, the AES-256 key of stored secrets; null: the key file below. */
  readonly cryptKey: string | null;
  /** CRYPT_KEY_FILE: where the key lives when CRYPT_KEY is unset (created 0600 on first start). */
  readonly cryptKeyFile: string;
  /** OAUTH_ACCESS_TOKEN_AS_BEARER=1: an OAuth access token alone works as a Bearer token. */
  readonly oauthAccessTokenAsBearer: boolean;
  /** ADMIN_LOCKOUT_*, ADMIN_TOKEN_RATE_*: lock-out and per-address limit of the admin token route. */
  readonly adminLogin: AdminLoginSettings;
  /** PASSWORD_SCRYPT_COST, PASSWORD_HASH_*: hashing strength and how many hashes run at once. */
  readonly passwordHashing: PasswordHashingSettings;
  /** Deepest nesting of arrays and objects a JSON body may have (64). */
  readonly maxJsonDepth: number;
  /** How long the whole request body may take to arrive, from when it is first read (30 s). */
  readonly bodyTimeoutMs: number;
  /** How long the request headers may take to arrive (20 s; node's headersTimeout). */
  readonly headersTimeoutMs: number;
  /** How long the whole request may take to arrive (60 s; node's requestTimeout). */
  readonly requestTimeoutMs: number;
  /** Bearer token a scraper of GET /metrics must send; unset: /metrics answers loopback clients only. */
  readonly metricsToken: string | undefined;
  /** RabbitMQ for the async web API (`amqp://...`); null: the `db` queue in the service's database. */
  readonly amqpUrl: string | null;
  /** Prefix of every exchange and queue name, so deployments sharing a broker stay apart. */
  readonly queuePrefix: string;
  /** How long a `db` queue message claimed by a consumer stays invisible to the others. */
  readonly dbQueueLockTimeoutMs: number;
}

export interface ApplicationOptions {
  readonly area?: Area;
  /** Where modules live; defaults to `modules/` (sources) and `dist/modules/` (compiled). */
  readonly moduleSources?: readonly ModuleSources[];
  /** `etc/config.json` by default. */
  readonly moduleConfigFile?: string;
  readonly databaseUrl?: string;
  readonly developerMode?: boolean;
  readonly bodyLimit?: number;
  readonly trustProxy?: boolean | number | string;
  readonly cryptKey?: string | null;
  readonly cryptKeyFile?: string;
  readonly oauthAccessTokenAsBearer?: boolean;
  readonly adminLogin?: Partial<AdminLoginSettings>;
  readonly passwordHashing?: Partial<PasswordHashingSettings>;
  readonly maxJsonDepth?: number;
  readonly bodyTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly metricsToken?: string;
  readonly amqpUrl?: string | null;
  readonly queuePrefix?: string;
  readonly dbQueueLockTimeoutMs?: number;
  readonly logger?: Logger;
  /** The time as services see it (FrameworkServices.Clock); the system clock by default. */
  readonly clock?: Clock;
}

export const DEFAULT_DATABASE_URL = `sqlite:${path.join('var', 'db.sqlite')}`;

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
    const logger = options.logger ?? createLogger();
    const config: DeploymentConfig = {
      databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      developerMode: options.developerMode ?? process.env.MAGE_MODE === 'developer',
      bodyLimit: options.bodyLimit ?? Number(process.env.BODY_LIMIT ?? 1024 * 1024),
      cryptKey: options.cryptKey !== undefined ? options.cryptKey : process.env.CRYPT_KEY || null,
      cryptKeyFile: options.cryptKeyFile ?? process.env.CRYPT_KEY_FILE ?? path.join(PROJECT_ROOT, 'var', 'crypt.key'),
      oauthAccessTokenAsBearer: options.oauthAccessTokenAsBearer ?? process.env.OAUTH_ACCESS_TOKEN_AS_BEARER === '1',
      trustProxy: options.trustProxy ?? trustProxy(process.env.TRUST_PROXY),
      adminLogin: {
        lockoutFailures: options.adminLogin?.lockoutFailures ?? wholeNumber('ADMIN_LOCKOUT_FAILURES', process.env.ADMIN_LOCKOUT_FAILURES, 6),
        lockoutMinutes: options.adminLogin?.lockoutMinutes ?? wholeNumber('ADMIN_LOCKOUT_MINUTES', process.env.ADMIN_LOCKOUT_MINUTES, 30, 1),
        rateLimit: options.adminLogin?.rateLimit ?? wholeNumber('ADMIN_TOKEN_RATE_LIMIT', process.env.ADMIN_TOKEN_RATE_LIMIT, 10),
        rateWindowSeconds: options.adminLogin?.rateWindowSeconds ?? wholeNumber('ADMIN_TOKEN_RATE_WINDOW_SECONDS', process.env.ADMIN_TOKEN_RATE_WINDOW_SECONDS, 60, 1),
        failureDelayMs: options.adminLogin?.failureDelayMs ?? wholeNumber('ADMIN_LOGIN_FAILURE_DELAY_MS', process.env.ADMIN_LOGIN_FAILURE_DELAY_MS, 1000),
      },
      passwordHashing: {
        scryptCost: options.passwordHashing?.scryptCost ?? scryptCost('PASSWORD_SCRYPT_COST', process.env.PASSWORD_SCRYPT_COST, 2 ** 17),
        concurrency: options.passwordHashing?.concurrency ?? wholeNumber('PASSWORD_HASH_CONCURRENCY', process.env.PASSWORD_HASH_CONCURRENCY, defaultHashConcurrency(), 1),
        queue: options.passwordHashing?.queue ?? wholeNumber('PASSWORD_HASH_QUEUE', process.env.PASSWORD_HASH_QUEUE, 16),
      },
      maxJsonDepth: options.maxJsonDepth ?? Number(process.env.JSON_MAX_DEPTH ?? DEFAULT_MAX_JSON_DEPTH),
      bodyTimeoutMs: options.bodyTimeoutMs ?? Number(process.env.BODY_TIMEOUT_MS ?? 30_000),
      headersTimeoutMs: options.headersTimeoutMs ?? Number(process.env.HEADERS_TIMEOUT_MS ?? 20_000),
      requestTimeoutMs: options.requestTimeoutMs ?? Number(process.env.REQUEST_TIMEOUT_MS ?? 60_000),
      metricsToken: options.metricsToken ?? (process.env.METRICS_TOKEN || undefined),
      amqpUrl: options.amqpUrl !== undefined ? options.amqpUrl : process.env.AMQP_URL || null,
      queuePrefix: options.queuePrefix ?? process.env.QUEUE_PREFIX ?? '',
      dbQueueLockTimeoutMs: options.dbQueueLockTimeoutMs ?? Number(process.env.DB_QUEUE_LOCK_TIMEOUT_MS ?? 60_000),
    };
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
    if (database.dialect === 'sqlite') ensureDirectoryFor(database.config);
    // knex's own warnings (a dropped connection, a failed acquire) go to our log, not the console.
    const knex = knexFactory({
      ...database.config,
      log: {
        warn: (message: unknown) => logger.warn({ knex: message }, 'knex warning'),
        error: (message: unknown) => logger.error({ knex: message }, 'knex error'),
        deprecate: (message: unknown) => logger.warn({ knex: message }, 'knex deprecation'),
        debug: (message: unknown) => logger.debug({ knex: message }, 'knex debug'),
      },
    });
    const connection = new ConnectionProvider(knex, database.dialect);
    const queue = createQueueConnection(
      { amqpUrl: config.amqpUrl, prefix: config.queuePrefix, dbLockTimeoutMs: config.dbQueueLockTimeoutMs },
      knex,
      database.dialect,
      logger,
    );

    const resolver = new ClassResolver(modules, FRAMEWORK_TYPES);
    const names = ObjectManager.referencedNames(diConfig);
    for (const route of routes) if (!names.has(route.serviceClass)) names.set(route.serviceClass, route.file);
    for (const name of FRAMEWORK_TYPES.keys()) if (!names.has(name)) names.set(name, 'the runtime');
    for (const observers of events.events.values()) {
      for (const observer of observers.values()) {
        if (observer.instance && !names.has(observer.instance)) names.set(observer.instance, observer.files[observer.files.length - 1]!);
      }
    }
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
      const pending = [...names];
      for (let next = pending.shift(); next; next = pending.shift()) {
        const [name, file] = next;
        if (name.includes('::')) {
          await resolver.loadConstant(name, file); // di.xml xsi:type="const" (or an init_parameter named by one)
          continue;
        }
        // A virtualType is only a name in di.xml; the class it varies is loaded under its own name.
        if (diConfig.types.get(name)?.virtualOf) continue;
        const value = await resolver.load(name, file);
        if (typeof value !== 'function') continue;
        // A class may @inject another class by name that no di.xml mentions: load it too, so it
        // can be built and a name that does not resolve fails now, not on the first request.
        for (const point of injectionPoints(value)) {
          const id = point?.serviceId;
          if (typeof id !== 'string' || names.has(id) || instances.has(id) || point!.optional) continue;
          names.set(id, `${file}: ${name} (@inject in its constructor)`);
          pending.push([id, names.get(id)!]);
        }
      }
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

  /** The Express app: `/rest/...` and `/health`. Built once. */
  http(): express.Express {
    if (this.expressApp) return this.expressApp;
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.set('query parser', 'extended');
    app.set('trust proxy', this.config.trustProxy);
    app.use(requestObserver(this.logger, this.metrics));
    const schemas = new Map<string, unknown>();
    const registry = new RouteRegistry<RouteTarget>();
    for (const route of this.routes.keys()) registry.add(route, this.routeTarget(route));
    const controller = new FrontController({
      routes: registry,
      stores: optional(this.objectManager, StoreResolverInterface.name),
      authorization: optional(this.objectManager, AuthorizationInterface.name),
      unitOfWork: new UnitOfWork(this.knex),
      errors: new ErrorRenderer(this.logger, this.config.developerMode),
      bodyLimit: this.config.bodyLimit,
      maxJsonDepth: this.config.maxJsonDepth,
      bodyTimeoutMs: this.config.bodyTimeoutMs,
      health: this.health,
      async: (checks) =>
        new AsyncController(
          [...this.routes.keys()].map((route) => [route, this.routeTarget(route)] as [RouteDefinition, RouteTarget]),
          optional(this.objectManager, BulkManagementInterface.name),
          checks,
        ),
      schema: (scopeCode) => {
        let document = schemas.get(scopeCode);
        if (!document) schemas.set(scopeCode, (document = generateSchema(this.routes, scopeCode, this.extensionAttributes)));
        return document;
      },
    });
    app.get('/health', async (_req, res) => {
      traceOf(res).route = '/health';
      try {
        await this.knex.raw('select 1');
        // Reads may work while writes fail: a degraded database is probed with a real write.
        if (this.health.degraded) await this.health.probe();
        const reason = this.health.degraded;
        if (reason) res.status(503).json({ status: 'degraded', database: 'up', reason });
        else res.status(200).json({ status: 'ok', database: 'up' });
      } catch (error) {
        this.logger.warn({ err: error }, 'health check: database does not answer');
        res.status(503).json({ status: 'unavailable', database: 'down' });
      }
    });
    app.get('/metrics', (req, res, next) => {
      traceOf(res).route = '/metrics';
      metricsEndpoint(this.metrics, this.config.metricsToken)(req, res).catch(next);
    });
    app.use('/rest', controller.handle);
    app.use('/swagger', swaggerPage());
    app.use((_req, res) => {
      res.status(404).json({ message: 'Request does not match any route.' });
    });
    this.expressApp = app;
    return app;
  }

  /** The contract call behind a route, as the front controller and the async consumers make it. */
  routeTarget(route: RouteDefinition): RouteTarget {
    const known = this.targets.get(route);
    if (known) return known;
    const spec = this.routes.get(route);
    if (!spec) throw new Error(`Unknown route ${route.method} ${route.url}`);
    const method = route.serviceMethod;
    let service: Record<string, (...args: unknown[]) => Promise<unknown>> | undefined;
    const returns = dataInterfaceName(spec.returns);
    const filter = this.extensionAttributes.needsFiltering(returns);
    const target: RouteTarget = {
      mapper: new InputMapper(spec, route.data),
      transactional: spec.transactional ?? route.method !== 'GET',
      invoke: async (args) => {
        service ??= this.objectManager.get<Record<string, (...args: unknown[]) => Promise<unknown>>>(route.serviceClass);
        const result = await service[method]!(...args);
        // Extension attributes with <resources> are hidden from callers that lack them.
        if (filter) this.extensionAttributes.filterOutput(result, returns!, (resource) => requestContext.caller().allows?.(resource) === true);
        return result;
      },
    };
    this.targets.set(route, target);
    return target;
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.knex.destroy();
  }
}

function optional<T>(objectManager: ObjectManager, name: string): () => T | null {
  let cached: T | null | undefined;
  return () => (cached ??= objectManager.isBound(name) ? objectManager.get<T>(name) : null);
}

/** Routes point at contracts whose methods exist and that a class serves; resources are known. */
function validateRoutes(
  routes: readonly RouteDefinition[],
  resolver: ClassResolver,
  objectManager: ObjectManager,
  acl: ReadonlyMap<string, AclResource>,
  logger: Logger,
): Map<RouteDefinition, MethodSpec> {
  const specs = new Map<RouteDefinition, MethodSpec>();
  for (const route of routes) {
    const where = `${route.file}: route ${route.method} ${route.url}`;
    const value = resolver.get(route.serviceClass);
    if (!isContract(value)) {
      throw new ConfigError(`${where}: service class ${route.serviceClass} is not a contract (routes name interfaces defined with defineContract)`);
    }
    const spec = value.methods[route.serviceMethod];
    if (!spec) {
      throw new ConfigError(`${where}: contract ${route.serviceClass} has no method "${route.serviceMethod}" (it has ${Object.keys(value.methods).join(', ')})`);
    }
    if (!objectManager.isBound(route.serviceClass)) {
      throw new ConfigError(`${where}: no class serves ${route.serviceClass}; declare a <preference> for it in a di.xml`);
    }
    const concrete = resolver.get(objectManager.concreteName(route.serviceClass)) as { prototype?: Record<string, unknown> } | undefined;
    if (typeof concrete?.prototype?.[route.serviceMethod] !== 'function') {
      throw new ConfigError(`${where}: ${objectManager.concreteName(route.serviceClass)} does not implement ${route.serviceMethod}()`);
    }
    for (const resource of route.resources) {
      if (resource !== 'anonymous' && resource !== 'self' && !acl.has(resource)) {
        logger.warn(`${where}: resource ${resource} is not declared in any etc/acl.xml`);
      }
    }
    specs.set(route, spec);
  }
  return specs;
}

function ensureDirectoryFor(config: Knex.Config): void {
  const filename = (config.connection as { filename?: string }).filename;
  if (filename && filename !== ':memory:') mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
}
