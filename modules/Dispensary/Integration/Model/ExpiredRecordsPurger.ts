import { FrameworkServices, inject, injectable, type Clock, type Logger, type SharedState } from '#framework';
import type { PurgerInterface } from '../Api/PurgerInterface.js';

/**
 * Runs every purger listed in di.xml (`purgers`): expired and revoked admin tokens, expired
 * lock-out rows, and whatever other modules add (the OAuth nonces). `integration:token:purge`
 * runs it on demand (from cron); a successful admin login runs it at most every
 * `intervalSeconds`, so a service without cron still cleans up: once per interval for the whole
 * deployment with REDIS_URL set (a claim in Redis), else (or while Redis is down) per process.
 */
@injectable()
export class ExpiredRecordsPurger {
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
    @inject(FrameworkServices.SharedState) private readonly shared: SharedState,
    private readonly purgers: Record<string, PurgerInterface> = {},
    private readonly intervalSeconds = 300,
  ) {}

  /** Rows deleted, by purger name. */
  async purgeAll(): Promise<Record<string, number>> {
    const now = this.clock.now();
    this.lastRun = now.getTime();
    const deleted: Record<string, number> = {};
    for (const [name, purger] of Object.entries(this.purgers)) deleted[name] = await purger.purge(now);
    return deleted;
  }

  /** purgeAll when the last run is older than the interval; a failure is logged, never thrown. */
  async purgeIfDue(): Promise<void> {
    if (this.clock.now().getTime() - this.lastRun < this.intervalSeconds * 1000) return;
    // Another process purged within the interval: this one waits a whole interval before asking again.
    if ((await this.shared.claim('purge_expired_records', this.intervalSeconds)) === false) {
      this.lastRun = this.clock.now().getTime();
      return;
    }
    try {
      const deleted = await this.purgeAll();
      if (Object.values(deleted).some((n) => n > 0)) this.logger.info({ deleted }, 'purged expired records');
    } catch (error) {
      this.logger.warn({ err: error }, 'purging expired records failed; the next login tries again');
    }
  }
}
