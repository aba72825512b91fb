import type { Knex } from 'knex';
import type { Dialect } from '../db/dialect.js';
import type { Logger } from '../logging/logger.js';
import { AmqpQueueConnection, DEFAULT_AMQP_TIMEOUTS, type AmqpTimeouts } from './AmqpQueueConnection.js';
import { DbQueueConnection } from './DbQueueConnection.js';
import type { QueueConnection } from './QueueConnection.js';
import { topology } from './Topology.js';

export interface QueueSettings {
  /** RabbitMQ when set; otherwise the `db` queue. */
  readonly amqpUrl: string | null;
  readonly prefix: string;
  readonly dbLockTimeoutMs: number;
  /** Partitions of the `db` queue by partition key (0 or unset: none). */
  readonly dbPartitions?: number;
  /** AMQP_HEARTBEAT_SECONDS, AMQP_CONNECT_TIMEOUT_MS, AMQP_CONFIRM_TIMEOUT_MS. */
  readonly amqpTimeouts?: AmqpTimeouts;
}

/** `amqp` when AMQP_URL is set, else `db`. Nothing connects until the first publish or consume. */
export function createQueueConnection(
  settings: QueueSettings,
  knex: Knex,
  dialect: Dialect,
  logger: Logger,
): QueueConnection {
  const names = topology(settings.prefix);
  return settings.amqpUrl
    ? new AmqpQueueConnection(settings.amqpUrl, names, logger, settings.amqpTimeouts ?? DEFAULT_AMQP_TIMEOUTS)
    : new DbQueueConnection(knex, dialect, names, logger, settings.dbLockTimeoutMs, settings.dbPartitions ?? 0);
}
