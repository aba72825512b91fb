/**
 * `queue:consumers:list`, `queue:consumers:start <consumer> [--max-messages N]` and
 * `queue:status`. A consumer runs in the `webapi_rest` area, so an operation meets the same
 * plugins as the synchronous route it replays; it applies up to CONSUMER_BATCH_SIZE operations in
 * one transaction (OperationConsumer). SIGTERM or SIGINT: the operation (or batch) in hand is
 * finished and acknowledged, then the process exits 0.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { Application, type ApplicationOptions } from '../bootstrap/Application.js';
import { OperationManagementInterface } from '../framework/bulk/BulkManagementInterface.js';
import { OperationConsumer } from '../framework/webapi/OperationConsumer.js';
import { UnitOfWork } from '../framework/db/UnitOfWork.js';
import type { ConsumerList } from '../framework/queue/ConsumerList.js';
import type { Logger } from '../framework/logging/logger.js';
import { ConsumerLease } from '../framework/queue/ConsumerLease.js';
import { ASYNC_OPERATIONS_CONSUMER, topology } from '../framework/queue/Topology.js';
import { closeServer, serveConsumerMetrics } from './consumerMetrics.js';

export interface QueueCommandContext {
  readonly options: ApplicationOptions;
  readonly logger: Logger;
  readonly out: (line: string) => void;
  /** Applies pending migrations (as every command that needs the database does first). */
  readonly upgrade: () => Promise<unknown>;
  /** Sets what the command line runs. */
  readonly setAction: (action: () => Promise<void>) => void;
}

const CONSUMERS = [ASYNC_OPERATIONS_CONSUMER];

export function addQueueCommands(program: Command, context: QueueCommandContext): void {
  const { out, setAction } = context;

  program
    .command('queue:consumers:list')
    .description('List the message queue consumers')
    .action(() =>
      setAction(async () => {
        const app = await Application.create({ ...context.options, area: 'global', logger: context.logger });
        try {
          [...CONSUMERS, ...moduleConsumers(app).names()].forEach((name) => out(name));
        } finally {
          await app.close();
        }
      }),
    );

  program
    .command('queue:consumers:start')
    .description('Run a consumer until SIGTERM (or --max-messages)')
    .argument('<consumer>', `consumer name (${CONSUMERS.join(', ')}, or one a module adds: queue:consumers:list)`)
    .option('--max-messages <n>', 'stop after this many messages', positiveInteger)
    .option('--metrics-port <port>', 'serve GET /metrics on this port (default: METRICS_PORT)', positiveInteger)
    .action((consumer: string, opts: { maxMessages?: number; metricsPort?: number }) =>
      setAction(async () => {
        await context.upgrade();
        const app = await Application.create({ ...context.options, area: 'webapi_rest', logger: context.logger });
        const fromModule = moduleConsumers(app).get(consumer);
        if (!CONSUMERS.includes(consumer) && !fromModule) {
          await app.close();
          throw new Error(`Consumer "${consumer}" does not exist`);
        }
        const stop = new AbortController();
        const onSignal = (): void => {
          context.logger.info('consumer: stopping after the current message');
          stop.abort();
        };
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
        let metricsServer: Awaited<ReturnType<typeof serveConsumerMetrics>> | undefined;
        try {
          const fromEnv = process.env.METRICS_PORT;
          const metricsPort = opts.metricsPort ?? (fromEnv ? positiveInteger(fromEnv) : undefined);
          if (metricsPort) metricsServer = await serveConsumerMetrics(app, metricsPort, context.logger);
          if (fromModule) {
            context.logger.info({ consumer }, 'consumer: started');
            const handled = await fromModule.run({ signal: stop.signal, maxMessages: opts.maxMessages });
            out(`Consumer ${consumer} processed ${handled} message(s).`);
            return;
          }
          if (!app.objectManager.isBound(OperationManagementInterface.name)) {
            throw new Error('No module serves Framework\\Bulk\\OperationManagementInterface: enable Dispensary_AsynchronousOperations');
          }
          const names = topology(app.config.queuePrefix);
          const queueName = [...names.queues.keys()][0]!;
          const consumerRunner = new OperationConsumer({
            queue: app.queue,
            queueName,
            operations: app.get<OperationManagementInterface>(OperationManagementInterface.name),
            routes: app.routes.keys(),
            target: (route) => app.routeTarget(route),
            unitOfWork: new UnitOfWork(app.knex),
            logger: context.logger,
            batchSize: app.config.consumerBatchSize,
            batchWaitMs: app.config.consumerBatchWaitMs,
          });
          // Said once the consumer can receive messages, not when the process booted: operators and tests wait for it.
          let started = false;
          const onConsuming = (): void => {
            if (started) return;
            started = true;
            context.logger.info({ consumer, connection: app.queue.type, batchSize: app.config.consumerBatchSize }, 'consumer: started');
          };
          let handled = 0;
          const consume = async (signal: AbortSignal): Promise<void> => {
            const left = opts.maxMessages === undefined ? undefined : opts.maxMessages - handled;
            handled += await consumerRunner.run({ signal, maxMessages: left, onConsuming });
          };
          if (app.database.dialect === 'sqlite') {
            // One writer: one consumer process works at a time, the others stand by (ConsumerLease).
            await new ConsumerLease(app.knex, queueName, app.config.dbQueueLockTimeoutMs, context.logger).whileHeld(stop.signal, consume);
          } else await consume(stop.signal);
          out(`Consumer ${consumer} processed ${handled} message(s).`);
        } finally {
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          await closeServer(metricsServer);
          await app.close();
        }
      }),
    );

  program
    .command('queue:status')
    .description('Messages waiting and dead letters of each consumer queue')
    .action(() =>
      setAction(async () => {
        await context.upgrade();
        const app = await Application.create({ ...context.options, area: 'global', logger: context.logger });
        try {
          const names = topology(app.config.queuePrefix);
          out(`connection: ${app.queue.type}`);
          for (const queue of names.queues.keys()) {
            const depth = await app.queue.depth(queue);
            out(`${queue}\tready ${depth.ready}\tdead letters ${depth.deadLetters}`);
          }
        } finally {
          await app.close();
        }
      }),
    );
}

function moduleConsumers(app: Application): ConsumerList {
  return app.get<ConsumerList>('Framework\\MessageQueue\\ConsumerList');
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer is expected');
  return n;
}
