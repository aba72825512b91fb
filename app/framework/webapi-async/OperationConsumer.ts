/**
 * The `async.operations.all` consumer: takes an operation message, replays the original request
 * through the same route handler as the synchronous route (RouteHandler.ts: the arguments the
 * async web API accepted, the same steps, plugins and unit of work), with the store and caller of the original request, and records how it ended.
 *
 * Exactly-once effect under at-least-once delivery: the operation row is taken (`start`) and
 * marked complete inside the contract call's own transaction, so either both the call's writes
 * and "complete" commit, or neither does; a redelivered message of a completed operation is
 * acknowledged without running it again.
 *
 * Failures: the operation's own (a 4xx-class LocalizedException) -> status 3 with its message and
 * the HTTP status as error code, no retry; transient (database away, deadlock, 503) -> retried
 * here with exponential backoff, then status 2 and back to the queue; anything unexpected ->
 * status 3 with a generic message (the detail goes to the log); a body that is not an operation
 * message -> dead-letter queue.
 *
 * Batches (CONSUMER_BATCH_SIZE > 1): the operations of a batch run in delivery order in ONE unit
 * of work: one statement takes them all, each runs behind a savepoint (a failing one is rolled
 * back alone and recorded as failed in the same transaction), one statement completes the
 * others, one commit, then every message is acknowledged. Anything that endangers the batch as a
 * whole (a transient failure, a lost savepoint, a failed commit, an operation taken meanwhile by
 * another delivery) rolls the batch back and its messages are handled one at a time as above, so
 * the exactly-once rules are those of the single path.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_STORE, GUEST, requestContext, type RequestContextData } from '../context/RequestContext.js';
import type { RouteDefinition } from '../config/WebapiConfig.js';
import { isRetryableConflict, isUnavailable } from '../db/dialect.js';
import { BatchSavepoint } from '../db/BatchSavepoint.js';
import { translateDatabaseError, type UnitOfWork } from '../db/UnitOfWork.js';
import { LocalizedException, NoSuchEntityException, renderPhrase } from '../exception/LocalizedException.js';
import { InputException } from '../exception/InputException.js';
import type { Logger } from '../logging/logger.js';
import {
  sleep,
  type ConsumeOptions,
  type Delivery,
  type DeliveryBatch,
  type QueueConnection,
} from '../queue/QueueConnection.js';
import type { RouteHandler } from '../webapi/RouteHandler.js';
import { httpStatusOf } from '../webapi/ErrorProcessor.js';
import type {
  OperationCompletion,
  OperationManagementInterface,
  StoredOperation,
} from '../bulk/BulkManagementInterface.js';
import { decodeOperationMessage, type OperationMessage } from '../bulk/OperationMessage.js';
import { OperationStatus } from '../bulk/OperationStatus.js';

export interface OperationConsumerOptions {
  readonly queue: QueueConnection;
  readonly queueName: string;
  readonly operations: OperationManagementInterface;
  readonly routes: Iterable<RouteDefinition>;
  /** Each route's handler, the one the web API uses (Application.routeHandler). */
  readonly handler: (route: RouteDefinition) => RouteHandler;
  readonly unitOfWork: UnitOfWork;
  readonly logger: Logger;
  /** Backoff of transient failures, in ms (doubles each time). */
  readonly retryDelaysMs?: readonly number[];
  /** How long a message whose operation row is not visible yet is retried before it is dropped. */
  readonly orphanGraceMs?: number;
  /** Most operations applied in one transaction (1, the default here: one at a time). */
  readonly batchSize?: number;
  /** Longest wait for a started batch to fill, in ms. */
  readonly batchWaitMs?: number;
}

/** An operation of a batch, with the message it came in. */
interface BatchEntry {
  readonly delivery: Delivery;
  readonly message: OperationMessage;
  readonly operation: StoredOperation;
}

/** The batch could not be applied as a whole: its operations go one at a time. */
class BatchAbandoned extends Error {
  constructor(reason: string, cause?: unknown) {
    super(reason, { cause });
    this.name = 'BatchAbandoned';
  }
}

const DEFAULT_RETRY_DELAYS = [250, 500, 1000, 2000, 4000, 8000];
const GENERIC_FAILURE = 'Something went wrong while processing the request. Please see the log for details.';

export class OperationConsumer {
  private readonly routes = new Map<string, RouteDefinition>();
  /** Aborted by SIGTERM: backoff sleeps end early, the message in hand is given back or finished. */
  private signal: AbortSignal = new AbortController().signal;

  constructor(private readonly options: OperationConsumerOptions) {
    for (const route of options.routes) this.routes.set(`${route.method} ${route.url}`, route);
  }

  run(consume: ConsumeOptions): Promise<number> {
    this.signal = consume.signal;
    const batchSize = this.options.batchSize ?? 1;
    if (batchSize <= 1)
      return this.options.queue.consume(this.options.queueName, (delivery) => this.handle(delivery), consume);
    return this.options.queue.consumeBatches(this.options.queueName, (batch) => this.handleBatch(batch), {
      ...consume,
      batchSize,
      batchWaitMs: this.options.batchWaitMs ?? 0,
    });
  }

  async handleBatch(batch: DeliveryBatch): Promise<void> {
    const { logger, operations } = this.options;
    if (batch.deliveries.length === 1) return this.handle(batch.deliveries[0]!);
    logger.debug({ messages: batch.deliveries.length }, 'consumer: batch taken');
    const decoded: { delivery: Delivery; message: OperationMessage }[] = [];
    for (const delivery of batch.deliveries) {
      const message = decodeOperationMessage(delivery.body);
      if (message) decoded.push({ delivery, message });
      else {
        logger.warn({ body: delivery.body.slice(0, 200) }, 'consumer: not an operation message; dead-lettered');
        await delivery.deadLetter('not an operation message');
      }
    }
    if (decoded.length === 0) return;
    let entries: BatchEntry[];
    const finished: Delivery[] = [];
    try {
      const loaded = new Map(
        (await operations.loadMany(decoded.map((d) => d.message.operation_id))).map((op) => [op.id, op]),
      );
      entries = [];
      for (const { delivery, message } of decoded) {
        const operation = loaded.get(message.operation_id);
        if (!operation || operation.bulkUuid !== message.bulk_uuid)
          await this.handle(delivery); // orphan: the single path's rules
        else if (operation.status !== OperationStatus.OPEN && operation.status !== OperationStatus.RETRIABLY_FAILED)
          finished.push(delivery);
        else entries.push({ delivery, message, operation });
      }
    } catch (error) {
      logger.info({ err: error }, 'consumer: the batch could not be loaded; its operations go one at a time');
      for (const { delivery } of decoded) await this.handle(delivery);
      return;
    }
    if (entries.length > 0) {
      try {
        await this.processBatch(entries);
        for (const entry of entries) logger.debug({ operationId: entry.operation.id }, 'consumer: operation done');
        finished.push(...entries.map((entry) => entry.delivery));
      } catch (error) {
        logger.info(
          { err: error, operations: entries.length },
          'consumer: batch rolled back; its operations go one at a time',
        );
        await batch.ack(finished);
        for (const entry of entries) await this.handle(entry.delivery);
        return;
      }
    }
    await batch.ack(finished);
  }

  /** One unit of work for the batch; throws (nothing kept) when it cannot be applied as a whole. */
  private async processBatch(entries: readonly BatchEntry[]): Promise<void> {
    const prepared = await this.prepareBatch(entries);
    // The batch's own context carries its transaction; each operation runs in a context of its own.
    const first = entries.find((entry) => entry.operation.request)?.operation.request;
    const context: RequestContextData = {
      requestId: randomUUID(),
      store: first?.store ?? ADMIN_STORE,
      caller: first?.caller ?? GUEST,
    };
    await requestContext.run(context, () =>
      this.options.unitOfWork.run(async () => {
        const transaction = requestContext.current()!.transaction;
        const ids = entries.map((entry) => entry.operation.id);
        // Taking the rows is the transaction's first write: a second delivery of any of them waits, then skips.
        const taken = await this.options.operations.startMany(ids);
        if (taken !== ids.length)
          throw new BatchAbandoned(`${ids.length - taken} operation(s) of the batch were taken meanwhile`);
        const completions: OperationCompletion[] = [];
        const failures: { id: number; failure: unknown }[] = [];
        const savepoint = new BatchSavepoint(transaction!);
        for (const { operation } of entries) {
          const args = prepared.get(operation.id)!;
          if ('failure' in args) {
            failures.push({ id: operation.id, failure: args.failure });
            continue;
          }
          const route = this.route(operation);
          const request = operation.request!;
          const operationContext: RequestContextData = {
            requestId: randomUUID(),
            store: request.store,
            caller: request.caller,
            transaction,
          };
          await savepoint.set();
          try {
            const handler = this.options.handler(route);
            const result = await requestContext.run(operationContext, () => handler.invoke(args.args));
            completions.push({
              operationId: operation.id,
              result: handler.output(result) ?? null,
              message: success(route),
            });
          } catch (error) {
            await savepoint.rollBack(); // or throws (SavepointLostError): the whole batch rolls back
            const failure = translateDatabaseError(error);
            if (isTransient(error, failure)) throw new BatchAbandoned('an operation failed transiently', error);
            failures.push({ id: operation.id, failure });
          }
        }
        await this.options.operations.completeMany(completions);
        for (const { id, failure } of failures) await this.recordFailure(id, failure);
      }),
    );
  }

  /**
   * Each operation's arguments after its before hooks (webhooks), which run outside the
   * transaction as on the synchronous route and the single path; an operation they refuse (or
   * whose request or route is gone) fails alone. A transient failure abandons the batch.
   */
  private async prepareBatch(
    entries: readonly BatchEntry[],
  ): Promise<Map<number, { args: unknown[] } | { failure: unknown }>> {
    const prepared = new Map<number, { args: unknown[] } | { failure: unknown }>();
    for (const { operation } of entries) {
      try {
        const route = this.route(operation); // throws when the request is missing or its route gone
        const request = operation.request!;
        const handler = this.options.handler(route);
        const context: RequestContextData = { requestId: randomUUID(), store: request.store, caller: request.caller };
        const args = await requestContext.run(context, () => handler.prepare([...request.args]));
        prepared.set(operation.id, { args });
      } catch (error) {
        const failure = translateDatabaseError(error);
        if (isTransient(error, failure)) throw new BatchAbandoned('a before hook failed transiently', error);
        prepared.set(operation.id, { failure });
      }
    }
    return prepared;
  }

  async handle(delivery: Delivery): Promise<void> {
    const { logger, operations } = this.options;
    const message = decodeOperationMessage(delivery.body);
    if (!message) {
      logger.warn({ body: delivery.body.slice(0, 200) }, 'consumer: not an operation message; dead-lettered');
      return delivery.deadLetter('not an operation message');
    }
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS;
    for (let attempt = 0; ; attempt++) {
      try {
        const operation = await operations.load(message.operation_id);
        if (!operation || operation.bulkUuid !== message.bulk_uuid) {
          // Published inside the bulk's transaction: a fast consumer may see the message first.
          if (Date.now() - message.published_at < (this.options.orphanGraceMs ?? 30_000)) return delivery.requeue(500);
          logger.warn({ message }, 'consumer: no such operation; dead-lettered');
          return delivery.deadLetter('no such operation');
        }
        if (operation.status !== OperationStatus.OPEN && operation.status !== OperationStatus.RETRIABLY_FAILED)
          return delivery.ack();
        await this.process(operation);
        logger.debug({ operationId: operation.id }, 'consumer: operation done');
        return delivery.ack();
      } catch (error) {
        const failure = translateDatabaseError(error);
        if (!isTransient(error, failure)) {
          await this.recordFailure(message.operation_id, failure);
          return delivery.ack();
        }
        if (attempt >= delays.length || this.signal.aborted) {
          logger.warn(
            { err: error, operationId: message.operation_id },
            'consumer: transient failure persists; the message goes back to the queue',
          );
          await operations
            .fail(message.operation_id, OperationStatus.RETRIABLY_FAILED, describe(failure), 503)
            .catch(() => undefined);
          // Stopping (SIGTERM): hand it back at once rather than after the backoff.
          return delivery.requeue(this.signal.aborted ? 0 : (delays[delays.length - 1] ?? 1000));
        }
        logger.info(
          { err: error, operationId: message.operation_id, attempt },
          'consumer: transient failure, retrying',
        );
        await sleep(delays[attempt]!, this.signal);
      }
    }
  }

  private route(operation: StoredOperation): RouteDefinition {
    const request = operation.request;
    const route = request ? this.routes.get(`${request.method} ${request.url}`) : undefined;
    if (!request || !route) {
      throw new NoSuchEntityException(
        `The route ${request?.method ?? ''} ${request?.url ?? ''} is not served any more.`,
      );
    }
    return route;
  }

  private async process(operation: StoredOperation): Promise<void> {
    const route = this.route(operation);
    const request = operation.request!;
    const handler = this.options.handler(route);
    const context: RequestContextData = { requestId: randomUUID(), store: request.store, caller: request.caller };
    await requestContext.run(context, async () => {
      // Before steps (hooks) run outside the transaction, as on the synchronous route.
      const args = await handler.prepare([...request.args]);
      await this.options.unitOfWork.run(async () => {
        // Taking the row is the transaction's first write: later deliveries wait here, then skip.
        if (!(await this.options.operations.start(operation.id))) return;
        const result = await handler.invoke(args);
        await this.options.operations.complete(operation.id, handler.output(result) ?? null, success(route));
      });
    });
  }

  private async recordFailure(operationId: number, failure: unknown): Promise<void> {
    if (failure instanceof LocalizedException) {
      await this.options.operations.fail(
        operationId,
        OperationStatus.NOT_RETRIABLY_FAILED,
        describe(failure),
        httpStatusOf(failure),
      );
      return;
    }
    this.options.logger.error({ err: failure, operationId }, 'consumer: operation failed unexpectedly');
    await this.options.operations.fail(operationId, OperationStatus.NOT_RETRIABLY_FAILED, GENERIC_FAILURE, 500);
  }
}

function success(route: RouteDefinition): string {
  return `Service execution success ${route.serviceClass}::${route.serviceMethod}`;
}

function isTransient(raw: unknown, failure: unknown): boolean {
  if (isUnavailable(raw) || isRetryableConflict(raw)) return true;
  return failure instanceof LocalizedException && httpStatusOf(failure) >= 500;
}

function describe(error: unknown): string {
  if (error instanceof InputException) return error.errors.map((e) => renderPhrase(e.phrase, e.parameters)).join(' ');
  if (error instanceof LocalizedException) return renderPhrase(error.phrase, error.parameters);
  return GENERIC_FAILURE;
}
