/**
 * Helpers for the async web API tests: the two queue connections (RabbitMQ only when
 * TEST_AMQP_URL is set), a name prefix per test run so parallel runs never share queues,
 * consumer processes as an operator starts them, and polling a bulk until it has drained.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import type { ApplicationOptions } from '../../../app/bootstrap/Application.js';
import { deleteTopology } from '../../../app/framework/queue/AmqpQueueConnection.js';

export const AMQP_URL = process.env.TEST_AMQP_URL ?? '';

export interface QueueMode {
  readonly name: 'db' | 'amqp';
  /** Why the mode's tests are pending, or null when they run. */
  readonly unavailable: string | null;
  options(): ApplicationOptions & { queuePrefix: string };
}

/** A prefix no other run shares: pid plus random. */
export function runPrefix(): string {
  return `test.${process.pid}.${randomBytes(3).toString('hex')}.`;
}

export const QUEUE_MODES: QueueMode[] = [
  {
    name: 'db',
    unavailable: null,
    options: () => ({ amqpUrl: null, queuePrefix: runPrefix(), dbQueueLockTimeoutMs: 2000 }),
  },
  {
    name: 'amqp',
    unavailable: AMQP_URL
      ? null
      : 'set TEST_AMQP_URL (e.g. amqp://guest:guest@127.0.0.1:5672) to run the RabbitMQ tests',
    options: () => ({ amqpUrl: AMQP_URL, queuePrefix: runPrefix() }),
  },
];

/** `npm run cli -- queue:consumers:start async.operations.all`, as its own process. */
export class ConsumerProcess {
  readonly output: string[] = [];
  private readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  static spawn(
    databaseUrl: string,
    options: {
      amqpUrl?: string | null;
      queuePrefix: string;
      dbQueueLockTimeoutMs?: number;
      consumerBatchSize?: number;
      consumerBatchWaitMs?: number;
    },
    args: string[] = [],
  ): ConsumerProcess {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: databaseUrl,
      QUEUE_PREFIX: options.queuePrefix,
      DB_QUEUE_LOCK_TIMEOUT_MS: String(options.dbQueueLockTimeoutMs ?? 2000),
      LOG_LEVEL: 'debug',
    };
    if (options.consumerBatchSize !== undefined) env.CONSUMER_BATCH_SIZE = String(options.consumerBatchSize);
    if (options.consumerBatchWaitMs !== undefined) env.CONSUMER_BATCH_WAIT_MS = String(options.consumerBatchWaitMs);
    if (options.amqpUrl) env.AMQP_URL = options.amqpUrl;
    else delete env.AMQP_URL;
    const child = spawn(
      process.execPath,
      [
        path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'),
        'queue:consumers:start',
        'async.operations.all',
        ...args,
      ],
      {
        cwd: PROJECT_ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return new ConsumerProcess(child);
  }

  /** Operations this consumer ran to the end (from its debug log). */
  operationsDone(): number {
    return this.output.join('').split('consumer: operation done').length - 1;
  }

  /** True when the log's last word is a batch taken, not its operations done: it holds a batch. */
  inBatch(): boolean {
    const log = this.output.join('');
    return log.lastIndexOf('consumer: batch taken') > log.lastIndexOf('consumer: operation done');
  }

  /**
   * SIGKILLs the consumer as soon as its log says it took a batch (a batch's operations are logged
   * done only after its commit); answers whether it died with the batch in hand, read from its
   * whole log once it is dead (the log may have raced ahead of the signal).
   */
  async killInBatch(timeoutMs = 30_000): Promise<boolean> {
    const streams = [this.child.stdout, this.child.stderr];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        for (const stream of streams) stream?.off('data', onData);
        reject(
          new Error(
            `the consumer took no batch in ${timeoutMs} ms: ${this.output
              .join('')
              .split('\n')
              .filter((line) => !line.includes('operation done'))
              .join('\n')
              .slice(-3000)}`,
          ),
        );
      }, timeoutMs);
      const onData = (): void => {
        if (!this.inBatch()) return;
        clearTimeout(timer);
        for (const stream of streams) stream?.off('data', onData);
        this.child.kill('SIGKILL');
        resolve();
      };
      // The logger writes to one of them; the batch may have been taken already.
      for (const stream of streams) stream?.on('data', onData);
      onData();
    });
    await this.exited;
    return this.inBatch();
  }

  /** Waits until the consumer has started consuming, or (SQLite) stands by for the lease (bounded). */
  async ready(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!/consumer: (started|standing by)/.test(this.output.join(''))) {
      if (this.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`consumer did not start: ${this.output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  exitCode(): Promise<number | null> {
    return this.exited;
  }
}

export interface OperationCounts {
  open: number;
  complete: number;
  failed: number;
  total: number;
}

export async function operationCounts(knex: Knex, bulkUuid: string): Promise<OperationCounts> {
  const rows = (await knex('magento_operation').where('bulk_uuid', bulkUuid).select('status')) as { status: number }[];
  const count = (...statuses: number[]) => rows.filter((r) => statuses.includes(r.status)).length;
  return { open: count(4, 2), complete: count(1), failed: count(3), total: rows.length };
}

/** Polls (bounded) until `done` holds; fails with the last counts and the consumers' output. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  context: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect.fail(`timed out waiting for ${what}\n${context()}`);
}

export { deleteTopology };
