/**
 * The one reader of the environment: defaults, variables, and options that override them.
 */
import { expect } from 'chai';
import {
  databaseUrl,
  DEFAULT_DATABASE_URL,
  isDeveloperMode,
  logLevel,
  readDeploymentConfig,
  readListenAddress,
  readServerSettings,
} from '../../../app/bootstrap/DeploymentConfig.js';
import { ConfigError } from '../../../app/framework/config/xml.js';

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
    });
    expect(config.adminLogin).to.deep.equal({ lockoutFailures: 6, lockoutMinutes: 30, rateLimit: 10, rateWindowSeconds: 60, failureDelayMs: 1000 });
  });

  it('should read the variables, and let an option override its variable', () => {
    const env = { DATABASE_URL: 'postgres://x@h/db', MAGE_MODE: 'developer', BODY_LIMIT: '2048', AMQP_URL: 'amqp://q', ADMIN_LOCKOUT_FAILURES: '3' };
    const config = readDeploymentConfig({ bodyLimit: 10, amqpUrl: null, adminLogin: { lockoutFailures: 0 } }, env);
    expect(config).to.include({ databaseUrl: 'postgres://x@h/db', developerMode: true, bodyLimit: 10, amqpUrl: null });
    expect(config.adminLogin.lockoutFailures).to.equal(0);
    expect(readDeploymentConfig({}, env).adminLogin.lockoutFailures).to.equal(3);
  });

  it('should refuse a malformed number with a ConfigError naming the variable', () => {
    expect(() => readDeploymentConfig({}, { ADMIN_TOKEN_RATE_LIMIT: 'ten' })).to.throw(ConfigError, /ADMIN_TOKEN_RATE_LIMIT/);
  });

  it('should give the CLI, knexfile.ts and server.ts their settings from the same place', () => {
    expect(databaseUrl({})).to.equal(DEFAULT_DATABASE_URL);
    expect(databaseUrl({ DATABASE_URL: 'mysql://r@h/t' })).to.equal('mysql://r@h/t');
    expect([isDeveloperMode({}), isDeveloperMode({ MAGE_MODE: 'developer' }), isDeveloperMode({ MAGE_MODE: 'production' })]).to.deep.equal([false, true, false]);
    expect([logLevel('warn', {}), logLevel('warn', { LOG_LEVEL: 'debug' })]).to.deep.equal(['warn', 'debug']);
    expect(readServerSettings({})).to.deep.equal({ port: 3000, host: undefined, shutdownGraceMs: 10_000 });
    expect(readServerSettings({ PORT: '8080', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '500' })).to.deep.equal({ port: 8080, host: '127.0.0.1', shutdownGraceMs: 500 });
  });

  it("should give a listener PORT and HOST over its own defaults (the benchmark's reference servers)", () => {
    expect(readListenAddress({ port: 3002, host: '127.0.0.1' }, {})).to.deep.equal({ port: 3002, host: '127.0.0.1' });
    expect(readListenAddress({ port: 3002, host: '127.0.0.1' }, { PORT: '4100', HOST: '0.0.0.0' })).to.deep.equal({ port: 4100, host: '0.0.0.0' });
    expect(readListenAddress({ port: 3001, host: undefined }, { PORT: '4101' })).to.deep.equal({ port: 4101, host: undefined });
  });
});
