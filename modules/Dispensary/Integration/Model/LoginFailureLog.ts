import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  nowTimestamp,
  type AdminLoginSettings,
  type Clock,
} from '#framework';

const TABLE = 'oauth_token_request_log';
/** Magento's RequestThrottler::USER_TYPE_ADMIN. */
const USER_TYPE_ADMIN = 3;

/**
 * Magento's lock-out of the token route (Integration's RequestThrottler and its
 * `oauth_token_request_log`): failed logins are counted per user name, known or not, so the lock
 * tells nothing about which names exist. Each failure sets `lock_expires_at` to now + the lock
 * time; when the count reaches the limit the name is refused (without checking the password)
 * until then. A success deletes the row. Rows whose time has passed count as empty (Magento's
 * cron deletes them; here `purgeExpired` does, and an expired row restarts at 1).
 */
@injectable()
export class LoginFailureLog {
  private readonly maxFailures: number;
  private readonly lockMs: number;

  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(FrameworkServices.DeploymentConfig) config: { readonly adminLogin: AdminLoginSettings },
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
  ) {
    this.maxFailures = config.adminLogin.lockoutFailures;
    this.lockMs = config.adminLogin.lockoutMinutes * 60_000;
  }

  async isLocked(userKey: string): Promise<boolean> {
    if (this.maxFailures === 0) return false;
    const row = await this.connection
      .get()(TABLE)
      .where({ user_name: userKey, user_type: USER_TYPE_ADMIN })
      .andWhere('failures_count', '>=', this.maxFailures)
      .andWhere('lock_expires_at', '>', nowTimestamp(this.clock.now()))
      .first('entity_id');
    return row !== undefined;
  }

  /** One statement (an upsert), so concurrent failures all count. */
  async recordFailure(userKey: string): Promise<void> {
    if (this.maxFailures === 0) return;
    const db = this.connection.get();
    const now = this.clock.now();
    const expires = nowTimestamp(new Date(now.getTime() + this.lockMs));
    await db(TABLE)
      .insert({ user_name: userKey, user_type: USER_TYPE_ADMIN, failures_count: 1, lock_expires_at: expires })
      .onConflict(['user_name', 'user_type'])
      // failures_count first: MySQL evaluates the assignments in order, and must see the old expiry.
      .merge({
        failures_count: db.raw('CASE WHEN ?? <= ? THEN 1 ELSE ?? + 1 END', [
          `${TABLE}.lock_expires_at`,
          nowTimestamp(now),
          `${TABLE}.failures_count`,
        ]),
        lock_expires_at: expires,
      });
  }

  async reset(userKey: string): Promise<number> {
    return this.connection.get()(TABLE).where({ user_name: userKey, user_type: USER_TYPE_ADMIN }).delete();
  }

  async purgeExpired(): Promise<number> {
    return this.connection.get()(TABLE).where('lock_expires_at', '<=', nowTimestamp(this.clock.now())).delete();
  }
}
