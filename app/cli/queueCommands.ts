/**
 * `queue:consumers:list`, `queue:consumers:start <consumer> [--max-messages N]` and
 * `queue:status`. A consumer runs in the `webapi_rest` area, so an operation meets the same
 * plugins as the synchronous route it replays; it applies up to CONSUMER_BATCH_SIZE operations in
 * one transaction (OperationConsumer). SIGTERM or SIGINT: the operation (or batch) in hand is
 * finished and acknowledged, then the process exits 0.
 */
import { InvalidArgumentError } from 'commander';
import { Application, type ApplicationOptions } from '../bootstrap/Application.js';
import { OperationManagementInterface } from '../framework/bulk/BulkManagementInterface.js';
import type { ConsoleCommand, Print } from '../framework/console/ConsoleCommand.js';
import { OperationConsumer } from '../framework/webapi-async/OperationConsumer.js';
import { UnitOfWork } from '../framework/db/UnitOfWork.js';
import type { ConsumerList } from '../framework/queue/ConsumerList.js';
import type { Logger } from '../framework/logging/logger.js';
import { ConsumerLease } from '../framework/queue/ConsumerLease.js';
import { ASYNC_OPERATIONS_CONSUMER, topology } from '../framework/queue/Topology.js';
import { closeServer, serveConsumerMetrics } from './consumerMetrics.js';
import { guardProcess } from '../bootstrap/processGuard.js';

export interface QueueCommandContext {
  readonly options: ApplicationOptions;
  readonly logger: Logger;
  /** Applies pending migrations (as every command that needs the database does first). */
  readonly upgrade: () => Promise<unknown>;
}

const CONSUMERS = [ASYNC_OPERATIONS_CONSUMER];

export function queueCommands(context: QueueCommandContext): ConsoleCommand[] {
  /** Runs `work` on an application of `area`, closed after. */
  const withApp = async (area: 'global' | 'webapi_rest', work: (app: Application) => Promise<void>): Promise<void> => {
    const app = await Application.create({ ...context.options, area, logger: context.logger });
    try {
      await work(app);
    } finally {
      await app.close();
    }
  };
  return [
    {
      definition: { name: 'queue:consumers:list', description: 'List the message queue consumers' },
      run: (_input, out) =>
        withApp('global', async (app) => [...CONSUMERS, ...moduleConsumers(app).names()].forEach((name) => out(name))),
    },
    {
      definition: {
        name: 'queue:consumers:start',
        description: 'Run a consumer until SIGTERM (or --max-messages)',
        arguments: [
          {
            syntax: '<consumer>',
            description: `consumer name (${CONSUMERS.join(', ')}, or one a module adds: queue:consumers:list)`,
          },
        ],
        options: [
          { flags: '--max-messages <n>', description: 'stop after this many messages', parse: positiveInteger },
          {
            flags: '--metrics-port <port>',
            description: 'serve GET /metrics on this port (default: METRICS_PORT)',
            parse: positiveInteger,
          },
        ],
      },
      async run({ args: [consumer = ''], options }, out) {
        await context.upgrade();
        const settings = {
          maxMessages: options.maxMessages as number | undefined,
          metricsPort: options.metricsPort as number | undefined,
        };
        await withApp('webapi_rest', (app) => startConsumer(app, context, consumer, settings, out));
      },
    },
    {
      definition: { name: 'queue:status', description: 'Messages waiting and dead letters of each consumer queue' },
      async run(_input, out) {
        await context.upgrade();
        await withApp('global', async (app) => {
          const names = topology(app.config.queuePrefix);
          out(`connection: ${app.queue.type}`);
          for (const queue of names.queues.keys()) {
            const depth = await app.queue.depth(queue);
            out(`${queue}\tready ${depth.ready}\tdead letters ${depth.deadLetters}`);
          }
        });
      },
    },
  ];
}

/** `queue:consumers:start`: a module's consumer, or the asynchronous operations' one, until SIGTERM or SIGINT. */
async function startConsumer(
  app: Application,
  context: QueueCommandContext,
  consumer: string,
  { maxMessages, metricsPort: metricsOption }: { maxMessages?: number; metricsPort?: number },
  out: Print,
): Promise<void> {
  const fromModule = moduleConsumers(app).get(consumer);
  if (!CONSUMERS.includes(consumer) && !fromModule) throw new Error(`Consumer "${consumer}" does not exist`);
  const stop = new AbortController();
  const onSignal = (): void => {
    context.logger.info('consumer: stopping after the current message');
    stop.abort();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // A consumer runs module code on untrusted answers (event receivers): an error escaping it is
  // logged and the consumer goes on, as the server does (app/bootstrap/processGuard.ts).
  guardProcess(context.logger);
  let metricsServer: Awaited<ReturnType<typeof serveConsumerMetrics>> | undefined;
  try {
    const fromEnv = process.env.METRICS_PORT;
    const metricsPort = metricsOption ?? (fromEnv ? positiveInteger(fromEnv) : undefined);
    if (metricsPort) metricsServer = await serveConsumerMetrics(app, metricsPort, context.logger);
    if (fromModule) {
      context.logger.info({ consumer }, 'consumer: started');
      const handled = await fromModule.run({ signal: stop.signal, maxMessages });
      out(`Consumer ${consumer} processed ${handled} message(s).`);
      return;
    }
    if (!app.objectManager.isBound(OperationManagementInterface.name)) {
      throw new Error(
        'No module serves Framework\\Bulk\\OperationManagementInterface: enable Dispensary_AsynchronousOperations',
      );
    }
    const names = topology(app.config.queuePrefix);
    const queueName = [...names.queues.keys()][0]!;
    const consumerRunner = new OperationConsumer({
      queue: app.queue,
      queueName,
      operations: app.get<OperationManagementInterface>(OperationManagementInterface.name),
      routes: app.routes.keys(),
      handler: (route) => app.routeHandler(route),
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
      context.logger.info(
        { consumer, connection: app.queue.type, batchSize: app.config.consumerBatchSize },
        'consumer: started',
      );
    };
    let handled = 0;
    const consume = async (signal: AbortSignal): Promise<void> => {
      const left = maxMessages === undefined ? undefined : maxMessages - handled;
      handled += await consumerRunner.run({ signal, maxMessages: left, onConsuming });
    };
    if (app.database.dialect === 'sqlite') {
      // One writer: one consumer process works at a time, the others stand by (ConsumerLease).
      await new ConsumerLease(app.knex, queueName, app.config.dbQueueLockTimeoutMs, context.logger).whileHeld(
        stop.signal,
        consume,
      );
    } else await consume(stop.signal);
    out(`Consumer ${consumer} processed ${handled} message(s).`);
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await closeServer(metricsServer);
  }
}

function moduleConsumers(app: Application): ConsumerList {
  return app.get<ConsumerList>('Framework\\MessageQueue\\ConsumerList');
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer is expected');
  return n;
}
