import type { Request, Response } from 'express';
import type { Knex } from 'knex';
import type { DatabaseHealth } from '../../framework/db/DatabaseHealth.js';
import type { Logger } from '../../framework/logging/logger.js';
import { traceOf } from '../../framework/observability/RequestTrace.js';
import type { SharedState } from '../../framework/shared/SharedState.js';

/**
 * GET /health: 200 ok, 503 degraded (reads work, writes fail) or 503 unavailable (no database).
 * With REDIS_URL set the body also says `redis: up|down`; a Redis that is down never fails the
 * check, as limits then come from memory and requests keep working.
 */
export function healthEndpoint(
  knex: Knex,
  health: DatabaseHealth,
  shared: SharedState,
  logger: Logger,
): (req: Request, res: Response) => Promise<void> {
  return async (_req, res) => {
    traceOf(res).route = '/health';
    const redisStatus = shared.status();
    const redis = async () => {
      const status = await redisStatus;
      return status === null ? {} : { redis: status };
    };
    try {
      await knex.raw('select 1');
      // Reads may work while writes fail: a degraded database is probed with a real write.
      if (health.degraded) await health.probe();
      const reason = health.degraded;
      if (reason) res.status(503).json({ status: 'degraded', database: 'up', reason, ...(await redis()) });
      else res.status(200).json({ status: 'ok', database: 'up', ...(await redis()) });
    } catch (error) {
      logger.warn({ err: error }, 'health check: database does not answer');
      res.status(503).json({ status: 'unavailable', database: 'down', ...(await redis()) });
    }
  };
}
