/**
 * The one reader of the environment: defaults, variables, and options that override them.
 */
import { expect } from 'chai';
import {
  databaseUrl,
  DEFAULT_CONSUMER_BATCH_SIZE,
  DEFAULT_CONSUMER_BATCH_WAIT_MS,
  DEFAULT_DATABASE_URL,
  isDeveloperMode,
  logLevel,
  moduleConfigFile,
  readDeploymentConfig,
  readListenAddress,
  readServerSettings,
} from '../../../../app/bootstrap/config/DeploymentConfig.js';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../../app/bootstrap/config/paths.js';
import { ConfigError } from '../../../../app/framework/xml/xml.js';

describe('DeploymentConfig', () => {
  it('should answer the defaults for an empty environment', () => {
    const config = readDeploymentConfig({}, {});
    expect(config).to.include({
      databaseUrl: DEFAULT_DATABASE_URL,
      developerMode: false,
      bodyLimit: 1024 * 1024,
      cryptKey: null,
      oauthAccessTokenAsBearer: false,
      maxJsonDepth: 64,
      bodyTimeoutMs: 30_000,
      metricsToken: undefined,
      amqpUrl: null,
      queuePrefix: '',
      consumerBatchSize: DEFAULT_CONSUMER_BATCH_SIZE,
      consumerBatchWaitMs: DEFAULT_CONSUMER_BATCH_WAIT_MS,
    });
    expect(config.adminLogin).to.deep.equal({
      lockoutFailures: 6,
      lockoutMinutes: 30,
      rateLimit: 10,
      rateWindowSeconds: 60,
      failureDelayMs: 1000,
    });
    expect(config.databaseTimeouts).to.deep.equal({ connectMs: 5000, acquireMs: 5000, statementMs: 5000 });
    expect(config.amqpTimeouts).to.deep.equal({ heartbeatSeconds: 10, connectMs: 5000, confirmMs: 10_000 });
    expect(config.redis).to.deep.equal({
      url: null,
      keyPrefix: 'dispensary:',
      commandTimeoutMs: 250,
      connectTimeoutMs: 2000,
    });
  });

  it('should read every timeout that bounds a wait on a dead link from its variable', () => {
    const env = {
      DB_CONNECT_TIMEOUT_MS: '1',
      DB_ACQUIRE_TIMEOUT_MS: '2',
      DB_STATEMENT_TIMEOUT_MS: '0',
      AMQP_HEARTBEAT_SECONDS: '4',
      AMQP_CONNECT_TIMEOUT_MS: '5',
      AMQP_CONFIRM_TIMEOUT_MS: '6',
      REDIS_URL: 'redis://r:6379',
      REDIS_KEY_PREFIX: 'x:',
      REDIS_COMMAND_TIMEOUT_MS: '7',
      REDIS_CONNECT_TIMEOUT_MS: '8',
    };
    const config = readDeploymentConfig({}, env);
    expect(config.databaseTimeouts).to.deep.equal({ connectMs: 1, acquireMs: 2, statementMs: 0 });
    expect(config.amqpTimeouts).to.deep.equal({ heartbeatSeconds: 4, connectMs: 5, confirmMs: 6 });
    expect(config.redis).to.deep.equal({
      url: 'redis://r:6379',
      keyPrefix: 'x:',
      commandTimeoutMs: 7,
      connectTimeoutMs: 8,
    });
    expect(() => readDeploymentConfig({}, { DB_STATEMENT_TIMEOUT_MS: '5s' })).to.throw(
      ConfigError,
      /DB_STATEMENT_TIMEOUT_MS/,
    );
  });

  it('should read the variables, and let an option override its variable', () => {
    const env = {
      DATABASE_URL: 'postgres://x@h/db',
      MAGE_MODE: 'developer',
      BODY_LIMIT: '2048',
      AMQP_URL: 'amqp://q',
      ADMIN_LOCKOUT_FAILURES: '3',
    };
    const config = readDeploymentConfig({ bodyLimit: 10, amqpUrl: null, adminLogin: { lockoutFailures: 0 } }, env);
    expect(config).to.include({ databaseUrl: 'postgres://x@h/db', developerMode: true, bodyLimit: 10, amqpUrl: null });
    expect(config.adminLogin.lockoutFailures).to.equal(0);
    expect(readDeploymentConfig({}, env).adminLogin.lockoutFailures).to.equal(3);
  });

  it('should refuse a malformed number with a ConfigError naming the variable', () => {
    expect(() => readDeploymentConfig({}, { ADMIN_TOKEN_RATE_LIMIT: 'ten' })).to.throw(
      ConfigError,
      /ADMIN_TOKEN_RATE_LIMIT/,
    );
    expect(() => readDeploymentConfig({}, { CONSUMER_BATCH_SIZE: '0' })).to.throw(ConfigError, /CONSUMER_BATCH_SIZE/);
    expect(readDeploymentConfig({}, { CONSUMER_BATCH_SIZE: '7', CONSUMER_BATCH_WAIT_MS: '0' })).to.include({
      consumerBatchSize: 7,
      consumerBatchWaitMs: 0,
    });
  });

  it('should give the CLI, knexfile.ts and server.ts their settings from the same place', () => {
    expect(databaseUrl({})).to.equal(DEFAULT_DATABASE_URL);
    expect(databaseUrl({ DATABASE_URL: 'mysql://r@h/t' })).to.equal('mysql://r@h/t');
    expect([
      isDeveloperMode({}),
      isDeveloperMode({ MAGE_MODE: 'developer' }),
      isDeveloperMode({ MAGE_MODE: 'production' }),
    ]).to.deep.equal([false, true, false]);
    expect([logLevel('warn', {}), logLevel('warn', { LOG_LEVEL: 'debug' })]).to.deep.equal(['warn', 'debug']);
    expect(readServerSettings({})).to.deep.equal({ port: 3000, host: undefined, shutdownGraceMs: 10_000 });
    expect(readServerSettings({ PORT: '8080', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '500' })).to.deep.equal({
      port: 8080,
      host: '127.0.0.1',
      shutdownGraceMs: 500,
    });
  });

  it('should read which modules are enabled from etc/config.json, or the file MODULE_CONFIG_FILE names', () => {
    expect(moduleConfigFile({})).to.equal(path.join(PROJECT_ROOT, 'etc', 'config.json'));
    expect(moduleConfigFile({}, '/srv/app')).to.equal(path.join('/srv/app', 'etc', 'config.json'));
    expect(moduleConfigFile({ MODULE_CONFIG_FILE: '/tmp/modules.json' })).to.equal('/tmp/modules.json');
    expect(moduleConfigFile({ MODULE_CONFIG_FILE: 'etc/staging.json' })).to.equal(path.resolve('etc/staging.json'));
  });

  it("should give a listener PORT and HOST over its own defaults (the benchmark's reference servers)", () => {
    expect(readListenAddress({ port: 3002, host: '127.0.0.1' }, {})).to.deep.equal({ port: 3002, host: '127.0.0.1' });
    expect(readListenAddress({ port: 3002, host: '127.0.0.1' }, { PORT: '4100', HOST: '0.0.0.0' })).to.deep.equal({
      port: 4100,
      host: '0.0.0.0',
    });
    expect(readListenAddress({ port: 3001, host: undefined }, { PORT: '4101' })).to.deep.equal({
      port: 4101,
      host: undefined,
    });
  });
});
