/**
 * Start-up phase 2, the resources services share: the database pool, the async web API's queue
 * and the shared state (Redis or memory). None of them connects yet: knex on its first query,
 * the queue on first use, Redis in the background. Closed by closeResources (Application.close).
 */
import type { Knex } from 'knex';
import { ConnectionProvider } from '../../framework/db/ConnectionProvider.js';
import { DatabaseHealth } from '../../framework/db/DatabaseHealth.js';
import { parseDatabaseUrl, type DatabaseSettings } from '../../framework/db/dialect.js';
import { createQueueConnection } from '../../framework/queue/createQueueConnection.js';
import type { QueueConnection } from '../../framework/queue/QueueConnection.js';
import { SharedState } from '../../framework/shared/SharedState.js';
import { createKnex } from './createKnex.js';
import type { Configuration } from '../config/loadConfiguration.js';

export interface Resources {
  readonly database: DatabaseSettings;
  readonly knex: Knex;
  /** What services query through (FrameworkServices.ConnectionProvider). */
  readonly connection: ConnectionProvider;
  /** Whether writes work; /health reports it. */
  readonly health: DatabaseHealth;
  /** The async web API's queue (`amqp` or `db`). */
  readonly queue: QueueConnection;
  /** Limits shared by every process through Redis (REDIS_URL), or kept in memory. */
  readonly shared: SharedState;
}

export function openResources({ config, logger }: Pick<Configuration, 'config' | 'logger'>): Resources {
  const database = parseDatabaseUrl(config.databaseUrl, config.databaseTimeouts);
  const knex = createKnex(database, logger);
  const queue = createQueueConnection(
    {
      amqpUrl: config.amqpUrl,
      prefix: config.queuePrefix,
      dbLockTimeoutMs: config.dbQueueLockTimeoutMs,
      amqpTimeouts: config.amqpTimeouts,
    },
    knex,
    database.dialect,
    logger,
  );
  const shared = new SharedState(config.redis, logger);
  const connection = new ConnectionProvider(knex, database.dialect);
  return { database, knex, connection, health: new DatabaseHealth(knex), queue, shared };
}

export async function closeResources({ queue, shared, knex }: Resources): Promise<void> {
  await queue.close();
  await shared.close();
  await knex.destroy();
}
