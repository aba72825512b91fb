/**
 * A queue connection of a module's own (Dispensary_Eventing's `event.delivery`), on the same broker
 * or database queue as the async web API's (AMQP_URL, QUEUE_PREFIX, DB_QUEUE_LOCK_TIMEOUT_MS), with
 * its own queues. The runtime's Topology names only `async.operations.all`; a module names its
 * queues here instead of in the runtime:
 *
 *   <prefix>magento (the same topic exchange) --<routing key>--> <prefix><queue> (durable)
 *   a rejected message -> <prefix><name>.dead-letter (fanout) -> <prefix><queue>.dead-letter
 *
 * Each queue is bound to the one topic of its name (no wildcard). Nothing connects until the first
 * publish or consume; the caller closes the connection.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../db/dialect.js';
import type { Logger } from '../logging/logger.js';
import { AmqpQueueConnection, DEFAULT_AMQP_TIMEOUTS, amqplib, type AmqpTimeouts } from './AmqpQueueConnection.js';
import { DbQueueConnection } from './DbQueueConnection.js';
import type { QueueConnection } from './QueueConnection.js';
import type { Topology } from './Topology.js';

/** The queue settings of the deployment (FrameworkServices.DeploymentConfig carries them). */
export interface ModuleQueueSettings {
  readonly amqpUrl: string | null;
  readonly queuePrefix: string;
  readonly dbQueueLockTimeoutMs: number;
  readonly amqpTimeouts?: AmqpTimeouts;
}

/** `name` keeps the dead-letter exchange apart from the runtime's; `topics` are the queues (= their topics). */
export function moduleTopology(prefix: string, name: string, topics: readonly string[]): Topology {
  return {
    exchange: `${prefix}magento`,
    deadLetterExchange: `${prefix}${name}.dead-letter`,
    // Longest first: queueForTopic (the db queue's router) matches a topic by prefix.
    queues: new Map([...topics].sort((a, b) => b.length - a.length).map((topic) => [`${prefix}${topic}`, topic])),
    deadLetterQueue: (queue) => `${queue}.dead-letter`,
  };
}

export function moduleQueueConnection(
  settings: ModuleQueueSettings,
  knex: Knex,
  dialect: Dialect,
  logger: Logger,
  name: string,
  topics: readonly string[],
): QueueConnection {
  const names = moduleTopology(settings.queuePrefix, name, topics);
  return settings.amqpUrl
    ? new AmqpQueueConnection(settings.amqpUrl, names, logger, settings.amqpTimeouts ?? DEFAULT_AMQP_TIMEOUTS)
    : new DbQueueConnection(knex, dialect, names, logger, settings.dbQueueLockTimeoutMs);
}

/** Deletes a module's queues, dead letters and dead-letter exchange (tests on a shared broker). */
export async function deleteModuleTopology(
  url: string,
  prefix: string,
  name: string,
  topics: readonly string[],
): Promise<void> {
  const t = moduleTopology(prefix, name, topics);
  const connection = await (await amqplib()).connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of t.queues.keys()) {
      await channel.deleteQueue(queue);
      await channel.deleteQueue(t.deadLetterQueue(queue));
    }
    await channel.deleteExchange(t.deadLetterExchange);
  } finally {
    await connection.close();
  }
}
