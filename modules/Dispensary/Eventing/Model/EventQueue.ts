import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  moduleQueueConnection,
  type Logger,
  type ModuleQueueSettings,
  type QueueConnection,
} from '#framework';

/** The topic (and queue) of ordinary events, and of those of subscriptions with `priority`. */
export const EVENT_TOPIC = 'event.delivery';
export const PRIORITY_EVENT_TOPIC = 'event.delivery.priority';
export const EVENT_TOPICS = [EVENT_TOPIC, PRIORITY_EVENT_TOPIC] as const;

/** What a relay publishes: the outbox row and the token of the relay's lease on it. */
export interface EventMessage {
  readonly id: number;
  readonly token: string;
}

export function parseEventMessage(body: string): EventMessage | undefined {
  try {
    const value = JSON.parse(body) as Partial<EventMessage>;
    if (!Number.isSafeInteger(value.id) || typeof value.token !== 'string') return undefined;
    return { id: value.id!, token: value.token };
  } catch {
    return undefined;
  }
}

/**
 * The queue events go through: the bulk consumers' broker or db queue (AMQP_URL, QUEUE_PREFIX,
 * DB_QUEUE_LOCK_TIMEOUT_MS), with the queues `<prefix>event.delivery` and
 * `<prefix>event.delivery.priority`. Each `open()` is a connection of its own, which its caller closes.
 */
@injectable()
export class EventQueue {
  constructor(
    @inject(FrameworkServices.DeploymentConfig) private readonly settings: ModuleQueueSettings,
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
  ) {}

  open(): QueueConnection {
    const { knex, dialect } = this.connection;
    return moduleQueueConnection(this.settings, knex, dialect, this.logger, EVENT_TOPIC, EVENT_TOPICS);
  }

  /** The queue a topic's messages wait in. */
  queueName(topic: string): string {
    return `${this.settings.queuePrefix}${topic}`;
  }
}
