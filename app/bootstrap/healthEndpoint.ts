import type { Request, Response } from 'express';
import type { Knex } from 'knex';
import type { DatabaseHealth } from '../framework/db/DatabaseHealth.js';
import type { Logger } from '../framework/logger.js';
import { traceOf } from '../framework/observability/RequestTrace.js';

/** GET /health: 200 ok, 503 degraded (reads work, writes fail) or 503 unavailable (no database). */
export function healthEndpoint(knex: Knex, health: DatabaseHealth, logger: Logger): (req: Request, res: Response) => Promise<void> {
  return async (_req, res) => {
    traceOf(res).route = '/health';
    try {
      await knex.raw('select 1');
      // Reads may work while writes fail: a degraded database is probed with a real write.
      if (health.degraded) await health.probe();
      const reason = health.degraded;
      if (reason) res.status(503).json({ status: 'degraded', database: 'up', reason });
      else res.status(200).json({ status: 'ok', database: 'up' });
    } catch (error) {
      logger.warn({ err: error }, 'health check: database does not answer');
      res.status(503).json({ status: 'unavailable', database: 'down' });
    }
  };
}
