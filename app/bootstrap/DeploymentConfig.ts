/**
 * The deployment configuration (Magento's app/etc/env.php): the one place that reads
 * `process.env`, for the service, the CLI, server.ts and the benchmark's servers. An option given
 * in code overrides its environment variable. Modules get the result through
 * `@inject(FrameworkServices.DeploymentConfig)`.
 */
import path from 'node:path';
import type { AdminLoginSettings, PasswordHashingSettings } from '../framework/security/settings.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../framework/webapi/InputSafety.js';
import { PROJECT_ROOT } from './paths.js';
import { defaultHashConcurrency, scryptCost, trustProxy, wholeNumber } from './settings.js';

type Environment = Readonly<Record<string, string | undefined>>;

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

/** What code (tests, the CLI) may set instead of the environment. */
export interface DeploymentConfigOverrides {
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
}

export const DEFAULT_DATABASE_URL = `sqlite:${path.join('var', 'db.sqlite')}`;

export function readDeploymentConfig(options: DeploymentConfigOverrides = {}, env: Environment = process.env): DeploymentConfig {
  return {
    databaseUrl: options.databaseUrl ?? databaseUrl(env),
    developerMode: options.developerMode ?? isDeveloperMode(env),
    bodyLimit: options.bodyLimit ?? Number(env.BODY_LIMIT ?? 1024 * 1024),
    cryptKey: options.cryptKey !== undefined ? options.cryptKey : env.CRYPT_KEY || null,
    cryptKeyFile: options.cryptKeyFile ?? env.CRYPT_KEY_FILE ?? path.join(PROJECT_ROOT, 'var', 'crypt.key'),
    oauthAccessTokenAsBearer: options.oauthAccessTokenAsBearer ?? env.OAUTH_ACCESS_TOKEN_AS_BEARER === '1',
    trustProxy: options.trustProxy ?? trustProxy(env.TRUST_PROXY),
    adminLogin: {
      lockoutFailures: options.adminLogin?.lockoutFailures ?? wholeNumber('ADMIN_LOCKOUT_FAILURES', env.ADMIN_LOCKOUT_FAILURES, 6),
      lockoutMinutes: options.adminLogin?.lockoutMinutes ?? wholeNumber('ADMIN_LOCKOUT_MINUTES', env.ADMIN_LOCKOUT_MINUTES, 30, 1),
      rateLimit: options.adminLogin?.rateLimit ?? wholeNumber('ADMIN_TOKEN_RATE_LIMIT', env.ADMIN_TOKEN_RATE_LIMIT, 10),
      rateWindowSeconds: options.adminLogin?.rateWindowSeconds ?? wholeNumber('ADMIN_TOKEN_RATE_WINDOW_SECONDS', env.ADMIN_TOKEN_RATE_WINDOW_SECONDS, 60, 1),
      failureDelayMs: options.adminLogin?.failureDelayMs ?? wholeNumber('ADMIN_LOGIN_FAILURE_DELAY_MS', env.ADMIN_LOGIN_FAILURE_DELAY_MS, 1000),
    },
    passwordHashing: {
      scryptCost: options.passwordHashing?.scryptCost ?? scryptCost('PASSWORD_SCRYPT_COST', env.PASSWORD_SCRYPT_COST, 2 ** 17),
      concurrency: options.passwordHashing?.concurrency ?? wholeNumber('PASSWORD_HASH_CONCURRENCY', env.PASSWORD_HASH_CONCURRENCY, defaultHashConcurrency(), 1),
      queue: options.passwordHashing?.queue ?? wholeNumber('PASSWORD_HASH_QUEUE', env.PASSWORD_HASH_QUEUE, 16),
    },
    maxJsonDepth: options.maxJsonDepth ?? Number(env.JSON_MAX_DEPTH ?? DEFAULT_MAX_JSON_DEPTH),
    bodyTimeoutMs: options.bodyTimeoutMs ?? Number(env.BODY_TIMEOUT_MS ?? 30_000),
    headersTimeoutMs: options.headersTimeoutMs ?? Number(env.HEADERS_TIMEOUT_MS ?? 20_000),
    requestTimeoutMs: options.requestTimeoutMs ?? Number(env.REQUEST_TIMEOUT_MS ?? 60_000),
    metricsToken: options.metricsToken ?? (env.METRICS_TOKEN || undefined),
    amqpUrl: options.amqpUrl !== undefined ? options.amqpUrl : env.AMQP_URL || null,
    queuePrefix: options.queuePrefix ?? env.QUEUE_PREFIX ?? '',
    dbQueueLockTimeoutMs: options.dbQueueLockTimeoutMs ?? Number(env.DB_QUEUE_LOCK_TIMEOUT_MS ?? 60_000),
  };
}

/** DATABASE_URL, as the service, the CLI and knexfile.ts read it. */
export function databaseUrl(env: Environment = process.env): string {
  return env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
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
