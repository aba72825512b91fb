/**
 * The `async.operations.all` consumer: takes an operation message, replays the original request
 * through the same route target as the synchronous route (same input mapping result, plugins and
 * unit of work), with the store and caller of the original request, and records how it ended.
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
 */
import { randomUUID } from 'node:crypto';
import { requestContext, type RequestContextData } from '../context/RequestContext.js';
import type { RouteDefinition } from '../config/WebapiConfig.js';
import { isRetryableConflict, isUnavailable } from '../db/dialect.js';
import { translateDatabaseError, type UnitOfWork } from '../db/UnitOfWork.js';
import { LocalizedException, NoSuchEntityException, renderPhrase } from '../exception/LocalizedException.js';
import { InputException } from '../exception/InputException.js';
import type { Logger } from '../logger.js';
import { sleep, type ConsumeOptions, type Delivery, type QueueConnection } from '../queue/QueueConnection.js';
import type { RouteTarget } from '../webapi/FrontController.js';
import { httpStatusOf } from '../webapi/ErrorProcessor.js';
import { snakeCaseKeys } from '../webapi/naming.js';
import type { OperationManagementInterface, StoredOperation } from './BulkManagementInterface.js';
import { decodeOperationMessage } from './OperationMessage.js';
import { OperationStatus } from './OperationStatus.js';

export interface OperationConsumerOptions {
  readonly queue: QueueConnection;
  readonly queueName: string;
  readonly operations: OperationManagementInterface;
  readonly routes: Iterable<RouteDefinition>;
  readonly target: (route: RouteDefinition) => RouteTarget;
  readonly unitOfWork: UnitOfWork;
  readonly logger: Logger;
  /** Backoff of transient failures, in ms (doubles each time). */
  readonly retryDelaysMs?: readonly number[];
  /** How long a message whose operation row is not visible yet is retried before it is dropped. */
  readonly orphanGraceMs?: number;
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
    return this.options.queue.consume(this.options.queueName, (delivery) => this.handle(delivery), consume);
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
        if (operation.status !== OperationStatus.OPEN && operation.status !== OperationStatus.RETRIABLY_FAILED) return delivery.ack();
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
          logger.warn({ err: error, operationId: message.operation_id }, 'consumer: transient failure persists; the message goes back to the queue');
          await operations.fail(message.operation_id, OperationStatus.RETRIABLY_FAILED, describe(failure), 503).catch(() => undefined);
          // Stopping (SIGTERM): hand it back at once rather than after the backoff.
          return delivery.requeue(this.signal.aborted ? 0 : (delays[delays.length - 1] ?? 1000));
        }
        logger.info({ err: error, operationId: message.operation_id, attempt }, 'consumer: transient failure, retrying');
        await sleep(delays[attempt]!, this.signal);
      }
    }
  }

  private async process(operation: StoredOperation): Promise<void> {
    const request = operation.request;
    const route = request ? this.routes.get(`${request.method} ${request.url}`) : undefined;
    if (!request || !route) {
      throw new NoSuchEntityException(`The route ${request?.method ?? ''} ${request?.url ?? ''} is not served any more.`);
    }
    const target = this.options.target(route);
    const context: RequestContextData = { requestId: randomUUID(), store: request.store, caller: request.caller };
    await requestContext.run(context, () =>
      this.options.unitOfWork.run(async () => {
        // Taking the row is the transaction's first write: later deliveries wait here, then skip.
        if (!(await this.options.operations.start(operation.id))) return;
        const result = await target.invoke([...request.args]);
        await this.options.operations.complete(operation.id, snakeCaseKeys(result) ?? null, `Service execution success ${route.serviceClass}::${route.serviceMethod}`);
      }),
    );
  }

  private async recordFailure(operationId: number, failure: unknown): Promise<void> {
    if (failure instanceof LocalizedException) {
      await this.options.operations.fail(operationId, OperationStatus.NOT_RETRIABLY_FAILED, describe(failure), httpStatusOf(failure));
      return;
    }
    this.options.logger.error({ err: failure, operationId }, 'consumer: operation failed unexpectedly');
    await this.options.operations.fail(operationId, OperationStatus.NOT_RETRIABLY_FAILED, GENERIC_FAILURE, 500);
  }
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
