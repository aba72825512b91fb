import type { ConsumeOptions } from './QueueConnection.js';

/**
 * Consumers modules add to `queue:consumers:start <name>`, beside the runtime's own
 * (async.operations.all), through di.xml:
 *
 *   <type name="Framework\MessageQueue\ConsumerList"><arguments>
 *     <argument name="consumers" xsi:type="array">
 *       <item name="event_delivery" xsi:type="object">Vendor\Module\Model\DeliveryConsumer</item>
 *     </argument></arguments></type>
 *
 * A consumer runs until the signal aborts (SIGTERM, SIGINT) or it has handled `maxMessages`, and
 * answers how many it handled.
 */
export interface QueueConsumer {
  readonly name: string;
  run(options: ConsumeOptions): Promise<number>;
}

export class ConsumerList {
  constructor(readonly consumers: Record<string, QueueConsumer> = {}) {}

  get(name: string): QueueConsumer | undefined {
    return Object.values(this.consumers).find((consumer) => consumer.name === name);
  }

  names(): string[] {
    return Object.values(this.consumers).map((consumer) => consumer.name);
  }
}
