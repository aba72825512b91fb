/**
 * The deployment configuration (Magento's app/etc/env.php): the one place that reads
 * `process.env`, for the service, the CLI, server.ts and the benchmark's servers. An option given
 * in code overrides its environment variable. Modules get the result through
 * `@inject(FrameworkServices.DeploymentConfig)`.
 */
import path from 'node:path';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../../framework/db/queryTimeouts.js';
import type { AdminLoginSettings, PasswordHashingSettings } from '../../framework/security/settings.js';
import { DEFAULT_AMQP_TIMEOUTS, type AmqpTimeouts } from '../../framework/queue/AmqpQueueConnection.js';
import type { RedisSettings } from '../../framework/shared/SharedState.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../../framework/webapi/InputSafety.js';
import { PROJECT_ROOT } from './paths.js';
import { defaultHashConcurrency, eventRetrySchedule, scryptCost, trustProxy, wholeNumber } from './settings.js';

type Environment = Readonly<Record<string, string | undefined>>;

export interface DeploymentConfig {
  readonly databaseUrl: string;
  /** DB_CONNECT_TIMEOUT_MS, DB_ACQUIRE_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS: how long a request waits on the database. */
  readonly databaseTimeouts: DatabaseTimeouts;
  readonly developerMode: boolean;
  /** Largest request body, in bytes (1 MiB by default). */
  readonly bodyLimit: number;
  /** BULK_BODY_LIMIT: the largest body of `/async/bulk/...`, in bytes. */
  readonly bulkBodyLimit: number;
  /** BULK_MAX_OPERATIONS: the most operations one bulk request may hold. */
  readonly bulkMaxOperations: number;
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
  /** AMQP_*_TIMEOUT_MS, AMQP_HEARTBEAT_SECONDS: how long the service waits on a broker it cannot hear. */
  readonly amqpTimeouts: AmqpTimeouts;
  /** Prefix of every exchange and queue name, so deployments sharing a broker stay apart. */
  readonly queuePrefix: string;
  /** How long a `db` queue message claimed by a consumer stays invisible to the others. */
  readonly dbQueueLockTimeoutMs: number;
  /** WEBHOOK_ALLOWED_HOSTS (comma-separated host names): the only hosts webhooks and events may call; null: any (but never the cloud metadata address). */
  readonly webhookAllowedHosts: readonly string[] | null;
  /**
   * EVENT_RETRY_SCHEDULE (`5s,5m,30m,2h,5h,10h,10h`, Standard Webhooks' recommendation): the delay
   * before each retry of a failed event delivery, in ms; the event is dead-lettered after the
   * first attempt and one retry per entry (8 attempts over 27 h 35 min by default).
   */
  readonly eventRetrySchedule: readonly number[];
  /** EVENT_CONCURRENCY (32): deliveries one delivery consumer process makes at once. */
  readonly eventConcurrency: number;
  /** EVENT_SUBSCRIPTION_CONCURRENCY (16): deliveries of one subscription under way at once in one consumer process. */
  readonly eventSubscriptionConcurrency: number;
  /** EVENT_TIMEOUT_MS (10000): how long one delivery may take. */
  readonly eventTimeoutMs: number;
  /** EVENT_LEASE_MS (30000): how long an event taken by a consumer is its own (sent again after, if it died). */
  readonly eventLeaseMs: number;
  /** EVENT_RETENTION_HOURS (168): how long a delivered event stays in the outbox before the delivery consumer deletes it; 0 keeps them. */
  readonly eventRetentionHours: number;
  /** REDIS_*: where limits shared by every process live (docs/operating-several-hosts.md). */
  readonly redis: RedisSettings;
  /** CONSUMER_BATCH_SIZE: most queued operations a consumer applies in one transaction (1: one at a time). */
  readonly consumerBatchSize: number;
  /** CONSUMER_BATCH_WAIT_MS: longest a consumer waits for a started batch to fill. */
  readonly consumerBatchWaitMs: number;
}

/** What code (tests, the CLI) may set instead of the environment. */
export interface DeploymentConfigOverrides {
  readonly databaseUrl?: string;
  readonly databaseTimeouts?: Partial<DatabaseTimeouts>;
  readonly developerMode?: boolean;
  readonly bodyLimit?: number;
  readonly bulkBodyLimit?: number;
  readonly bulkMaxOperations?: number;
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
  readonly amqpTimeouts?: Partial<AmqpTimeouts>;
  readonly queuePrefix?: string;
  readonly dbQueueLockTimeoutMs?: number;
  readonly webhookAllowedHosts?: readonly string[] | null;
  readonly eventRetrySchedule?: readonly number[];
  readonly eventConcurrency?: number;
  readonly eventSubscriptionConcurrency?: number;
  readonly eventTimeoutMs?: number;
  readonly eventLeaseMs?: number;
  readonly eventRetentionHours?: number;
  readonly redis?: Partial<RedisSettings>;
  readonly consumerBatchSize?: number;
  readonly consumerBatchWaitMs?: number;
}

/** Chosen from `npm run bench:async -- --batch-sizes` (see BENCHMARKS.md). */
export const DEFAULT_CONSUMER_BATCH_SIZE = 50;
export const DEFAULT_CONSUMER_BATCH_WAIT_MS = 20;

export const DEFAULT_DATABASE_URL = `sqlite:${path.join('var', 'db.sqlite')}`;

export function readDeploymentConfig(
  options: DeploymentConfigOverrides = {},
  env: Environment = process.env,
): DeploymentConfig {
  return {
    databaseUrl: options.databaseUrl ?? databaseUrl(env),
    databaseTimeouts: databaseTimeouts(options.databaseTimeouts, env),
    developerMode: options.developerMode ?? isDeveloperMode(env),
    bodyLimit: options.bodyLimit ?? Number(env.BODY_LIMIT ?? 1024 * 1024),
    bulkBodyLimit: options.bulkBodyLimit ?? wholeNumber('BULK_BODY_LIMIT', env.BULK_BODY_LIMIT, 16 * 1024 * 1024, 1),
    bulkMaxOperations:
      options.bulkMaxOperations ?? wholeNumber('BULK_MAX_OPERATIONS', env.BULK_MAX_OPERATIONS, 10_000, 1),
    cryptKey: options.cryptKey !== undefined ? options.cryptKey : env.CRYPT_KEY || null,
    cryptKeyFile: options.cryptKeyFile ?? env.CRYPT_KEY_FILE ?? path.join(PROJECT_ROOT, 'var', 'crypt.key'),
    oauthAccessTokenAsBearer: options.oauthAccessTokenAsBearer ?? env.OAUTH_ACCESS_TOKEN_AS_BEARER === '1',
    trustProxy: options.trustProxy ?? trustProxy(env.TRUST_PROXY),
    adminLogin: {
      lockoutFailures:
        options.adminLogin?.lockoutFailures ?? wholeNumber('ADMIN_LOCKOUT_FAILURES', env.ADMIN_LOCKOUT_FAILURES, 6),
      lockoutMinutes:
        options.adminLogin?.lockoutMinutes ?? wholeNumber('ADMIN_LOCKOUT_MINUTES', env.ADMIN_LOCKOUT_MINUTES, 30, 1),
      rateLimit: options.adminLogin?.rateLimit ?? wholeNumber('ADMIN_TOKEN_RATE_LIMIT', env.ADMIN_TOKEN_RATE_LIMIT, 10),
      rateWindowSeconds:
        options.adminLogin?.rateWindowSeconds ??
        wholeNumber('ADMIN_TOKEN_RATE_WINDOW_SECONDS', env.ADMIN_TOKEN_RATE_WINDOW_SECONDS, 60, 1),
      failureDelayMs:
        options.adminLogin?.failureDelayMs ??
        wholeNumber('ADMIN_LOGIN_FAILURE_DELAY_MS', env.ADMIN_LOGIN_FAILURE_DELAY_MS, 1000),
    },
    passwordHashing: {
      scryptCost:
        options.passwordHashing?.scryptCost ?? scryptCost('PASSWORD_SCRYPT_COST', env.PASSWORD_SCRYPT_COST, 2 ** 17),
      concurrency:
        options.passwordHashing?.concurrency ??
        wholeNumber('PASSWORD_HASH_CONCURRENCY', env.PASSWORD_HASH_CONCURRENCY, defaultHashConcurrency(), 1),
      queue: options.passwordHashing?.queue ?? wholeNumber('PASSWORD_HASH_QUEUE', env.PASSWORD_HASH_QUEUE, 16),
    },
    maxJsonDepth: options.maxJsonDepth ?? Number(env.JSON_MAX_DEPTH ?? DEFAULT_MAX_JSON_DEPTH),
    bodyTimeoutMs: options.bodyTimeoutMs ?? Number(env.BODY_TIMEOUT_MS ?? 30_000),
    headersTimeoutMs: options.headersTimeoutMs ?? Number(env.HEADERS_TIMEOUT_MS ?? 20_000),
    requestTimeoutMs: options.requestTimeoutMs ?? Number(env.REQUEST_TIMEOUT_MS ?? 60_000),
    metricsToken: options.metricsToken ?? (env.METRICS_TOKEN || undefined),
    amqpUrl: options.amqpUrl !== undefined ? options.amqpUrl : env.AMQP_URL || null,
    amqpTimeouts: {
      heartbeatSeconds:
        options.amqpTimeouts?.heartbeatSeconds ??
        wholeNumber('AMQP_HEARTBEAT_SECONDS', env.AMQP_HEARTBEAT_SECONDS, DEFAULT_AMQP_TIMEOUTS.heartbeatSeconds, 1),
      connectMs:
        options.amqpTimeouts?.connectMs ??
        wholeNumber('AMQP_CONNECT_TIMEOUT_MS', env.AMQP_CONNECT_TIMEOUT_MS, DEFAULT_AMQP_TIMEOUTS.connectMs, 1),
      confirmMs:
        options.amqpTimeouts?.confirmMs ??
        wholeNumber('AMQP_CONFIRM_TIMEOUT_MS', env.AMQP_CONFIRM_TIMEOUT_MS, DEFAULT_AMQP_TIMEOUTS.confirmMs, 1),
    },
    queuePrefix: options.queuePrefix ?? env.QUEUE_PREFIX ?? '',
    dbQueueLockTimeoutMs: options.dbQueueLockTimeoutMs ?? Number(env.DB_QUEUE_LOCK_TIMEOUT_MS ?? 60_000),
    webhookAllowedHosts:
      options.webhookAllowedHosts !== undefined ? options.webhookAllowedHosts : hostList(env.WEBHOOK_ALLOWED_HOSTS),
    eventRetrySchedule: options.eventRetrySchedule ?? eventRetrySchedule(env),
    eventConcurrency: options.eventConcurrency ?? wholeNumber('EVENT_CONCURRENCY', env.EVENT_CONCURRENCY, 32, 1),
    eventSubscriptionConcurrency:
      options.eventSubscriptionConcurrency ??
      wholeNumber('EVENT_SUBSCRIPTION_CONCURRENCY', env.EVENT_SUBSCRIPTION_CONCURRENCY, 16, 1),
    eventTimeoutMs: options.eventTimeoutMs ?? wholeNumber('EVENT_TIMEOUT_MS', env.EVENT_TIMEOUT_MS, 10_000, 1),
    eventLeaseMs: options.eventLeaseMs ?? wholeNumber('EVENT_LEASE_MS', env.EVENT_LEASE_MS, 30_000, 1),
    eventRetentionHours:
      options.eventRetentionHours ?? wholeNumber('EVENT_RETENTION_HOURS', env.EVENT_RETENTION_HOURS, 168),
    redis: {
      url: options.redis?.url !== undefined ? options.redis.url : env.REDIS_URL || null,
      keyPrefix: options.redis?.keyPrefix ?? env.REDIS_KEY_PREFIX ?? 'dispensary:',
      commandTimeoutMs:
        options.redis?.commandTimeoutMs ??
        wholeNumber('REDIS_COMMAND_TIMEOUT_MS', env.REDIS_COMMAND_TIMEOUT_MS, 250, 1),
      connectTimeoutMs:
        options.redis?.connectTimeoutMs ??
        wholeNumber('REDIS_CONNECT_TIMEOUT_MS', env.REDIS_CONNECT_TIMEOUT_MS, 2000, 1),
    },
    consumerBatchSize:
      options.consumerBatchSize ??
      wholeNumber('CONSUMER_BATCH_SIZE', env.CONSUMER_BATCH_SIZE, DEFAULT_CONSUMER_BATCH_SIZE, 1),
    consumerBatchWaitMs:
      options.consumerBatchWaitMs ??
      wholeNumber('CONSUMER_BATCH_WAIT_MS', env.CONSUMER_BATCH_WAIT_MS, DEFAULT_CONSUMER_BATCH_WAIT_MS),
  };
}

/** DB_*_TIMEOUT_MS, as the service, the CLI and knexfile.ts read them. */
export function databaseTimeouts(
  options: Partial<DatabaseTimeouts> = {},
  env: Environment = process.env,
): DatabaseTimeouts {
  const d = DEFAULT_DATABASE_TIMEOUTS;
  return {
    connectMs: options.connectMs ?? wholeNumber('DB_CONNECT_TIMEOUT_MS', env.DB_CONNECT_TIMEOUT_MS, d.connectMs, 1),
    acquireMs: options.acquireMs ?? wholeNumber('DB_ACQUIRE_TIMEOUT_MS', env.DB_ACQUIRE_TIMEOUT_MS, d.acquireMs, 1),
    statementMs:
      options.statementMs ?? wholeNumber('DB_STATEMENT_TIMEOUT_MS', env.DB_STATEMENT_TIMEOUT_MS, d.statementMs),
  };
}

function hostList(value: string | undefined): string[] | null {
  const hosts = (value ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  return hosts.length ? hosts : null;
}

/** DATABASE_URL, as the service, the CLI and knexfile.ts read it. */
export function databaseUrl(env: Environment = process.env): string {
  return env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

/**
 * MODULE_CONFIG_FILE: the file that enables and disables modules (etc/config.json by default), as
 * the service, the CLI and knexfile.ts read it. The test suite points it at a file of its own.
 */
export function moduleConfigFile(env: Environment = process.env, root = PROJECT_ROOT): string {
  return env.MODULE_CONFIG_FILE ? path.resolve(env.MODULE_CONFIG_FILE) : path.join(root, 'etc', 'config.json');
}

/** MAGE_MODE=developer: error bodies and CLI errors carry the stack trace. */
export function isDeveloperMode(env: Environment = process.env): boolean {
  return env.MAGE_MODE === 'developer';
}

/** LOG_LEVEL, or the process's own default (`info` for the server, `warn` for the CLI). */
export function logLevel(fallback: string, env: Environment = process.env): string {
  return env.LOG_LEVEL ?? fallback;
}

/** What server.ts listens on and how long a shutdown may let requests finish. */
export interface ServerSettings {
  readonly port: number;
  /** HOST; undefined: every address. */
  readonly host: string | undefined;
  readonly shutdownGraceMs: number;
}

export function readServerSettings(env: Environment = process.env): ServerSettings {
  return {
    ...readListenAddress({ port: 3000, host: undefined }, env),
    shutdownGraceMs: Number(env.SHUTDOWN_GRACE_MS ?? 10_000),
  };
}

/** PORT and HOST over a listener's own defaults (the benchmark's reference servers have theirs); HOST undefined: every address. */
export function readListenAddress<Host extends string | undefined>(
  defaults: { readonly port: number; readonly host: Host },
  env: Environment = process.env,
): { port: number; host: string | Host } {
  return { port: Number(env.PORT ?? defaults.port), host: env.HOST ?? defaults.host };
}
