import {
  AuthenticationException,
  ConnectionProvider,
  FrameworkServices,
  InputException,
  inject,
  requiredField,
  injectable,
  nowTimestamp,
  requestContext,
  TooManyRequestsException,
  type AdminLoginSettings,
  type Clock,
  type Logger,
} from '#framework';
import type { AdminTokenServiceInterface } from '../Api/AdminTokenServiceInterface.js';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import type { ClientRateLimiter } from './ClientRateLimiter.js';
import type { ExpiredRecordsPurger } from './ExpiredRecordsPurger.js';
import type { LoginFailureLog } from './LoginFailureLog.js';
import { generateToken, hashToken } from './tokens.js';
import { isStorableKey, usernameKey } from './usernameKey.js';

/**
 * Magento's AdminTokenService with its RequestThrottler, in this order: the per-address limit
 * (429), the user name's lock (401), the credentials (401), and the lock again after a right
 * password, so guesses that raced past the first check still get no token. Runs outside the
 * request's unit of work (the contract says `transactional: false`): no connection is held while
 * the password hashes. Every refusal is answered no sooner than `failureDelayMs` after the call
 * began.
 */
@injectable()
export class AdminTokenService implements AdminTokenServiceInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface,
    @inject('Dispensary\\Integration\\Model\\LoginFailureLog') private readonly failures: LoginFailureLog,
    @inject('Dispensary\\Integration\\Model\\ClientRateLimiter') private readonly limiter: ClientRateLimiter,
    @inject('Dispensary\\Integration\\Model\\ExpiredRecordsPurger') private readonly purger: ExpiredRecordsPurger,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
    @inject(FrameworkServices.DeploymentConfig) config: { readonly adminLogin: AdminLoginSettings },
    private readonly lifetimeSeconds = 14400,
  ) {
    this.failureDelayMs = config.adminLogin.failureDelayMs;
  }

  private readonly failureDelayMs: number;

  async createAdminAccessToken(username: string, password: string): Promise<string> {
    // Magento's Integration\Model\CredentialsValidator, before any throttling or hashing.
    const missing = [username === '' && 'username', password === '' && 'password'].filter((field): field is string =>
      Boolean(field),
    );
    if (missing.length) throw new InputException(missing.map(requiredField));
    const started = performance.now();
    try {
      return await this.issue(username, password);
    } catch (error) {
      // Every refusal takes the same minimum time: a flood's connections wait on a timer, not on
      // the CPU, and the answer's timing tells nothing of a lock or a queue.
      const wait = this.failureDelayMs - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      throw error;
    }
  }

  private async issue(username: string, password: string): Promise<string> {
    const clientAddress = requestContext.current()?.clientAddress;
    const wait = await this.limiter.take(clientAddress);
    if (wait !== null) {
      this.logFailure(username, clientAddress, 'too many requests from the address');
      throw new TooManyRequestsException(wait);
    }
    const key = usernameKey(username);
    const countable = isStorableKey(key);
    if (countable && (await this.failures.isLocked(key))) {
      this.logFailure(username, clientAddress, 'locked');
      throw AuthenticationException.invalidCredentials();
    }
    const result = await this.users.authenticate(username, password);
    if (result.userId === null) {
      // A deactivated user gave the right password: refused, but not counted towards the lock (as Magento, whose
      // User::verifyIdentity throws before its throttler logs a failure).
      if (countable && result.failure !== 'inactive') await this.failures.recordFailure(key);
      this.logFailure(username, clientAddress, result.failure ?? 'wrong password');
      throw AuthenticationException.invalidCredentials();
    }
    if (await this.failures.isLocked(key)) {
      this.logFailure(username, clientAddress, 'locked');
      throw AuthenticationException.invalidCredentials();
    }
    await this.failures.reset(key);
    const token = generateToken();
    const now = this.clock.now();
    await this.connection
      .get()('integration_token')
      .insert({
        kind: 'admin',
        name: result.username,
        active_name: null,
        token_hash: hashToken(token),
        store_id: null,
        resources: null,
        admin_user_id: result.userId,
        created_at: nowTimestamp(now),
        expires_at: nowTimestamp(new Date(now.getTime() + this.lifetimeSeconds * 1000)),
      });
    await this.purger.purgeIfDue();
    return token;
  }

  async revokeAdminAccessTokens(username: string): Promise<number> {
    const userId = await this.users.getIdByUsername(username);
    if (userId === null)
      throw new InputException([{ phrase: 'No admin user is named "%username".', parameters: { username } }]);
    return this.connection
      .get()('integration_token')
      .where({ kind: 'admin', admin_user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: nowTimestamp(this.clock.now()) });
  }

  /** Who tried, from where, and why it failed; never the password. */
  private logFailure(username: string, clientAddress: string | undefined, reason: string): void {
    this.logger.warn(
      { event: 'admin_login_failed', username: [...username].slice(0, 64).join(''), clientAddress, reason },
      'admin login failed',
    );
  }
}
