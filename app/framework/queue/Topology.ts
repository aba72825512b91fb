/**
 * Names of the exchanges and queues the service declares. `prefix` (QUEUE_PREFIX) keeps
 * deployments, or test runs, that share one broker apart.
 *
 *   <prefix>magento (topic exchange) --async.#--> <prefix>async.operations.all (durable queue)
 *   a rejected message -> <prefix>magento.dead-letter (fanout) -> <prefix>async.operations.all.dead-letter
 */
export const ASYNC_OPERATIONS_CONSUMER = 'async.operations.all';

export interface Topology {
  readonly exchange: string;
  readonly deadLetterExchange: string;
  /** Queue name -> the routing pattern bound to it. */
  readonly queues: ReadonlyMap<string, string>;
  deadLetterQueue(queue: string): string;
}

export function topology(prefix = ''): Topology {
  return {
    exchange: `${prefix}magento`,
    deadLetterExchange: `${prefix}magento.dead-letter`,
    queues: new Map([[`${prefix}${ASYNC_OPERATIONS_CONSUMER}`, 'async.#']]),
    deadLetterQueue: (queue) => `${queue}.dead-letter`,
  };
}

/** The queue a topic is routed to (`async.#` patterns only: enough for the async web API). */
export function queueForTopic(t: Topology, topic: string): string {
  for (const [queue, pattern] of t.queues) {
    const head = pattern.replace(/\.?#$/, '');
    if (topic === head || topic.startsWith(`${head}.`)) return queue;
  }
  throw new Error(`No queue is bound to topic ${topic}`);
}
