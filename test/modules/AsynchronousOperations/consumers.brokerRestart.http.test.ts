// npm test: run alone (with TEST_AMQP_RESTART it stops and restarts the shared RabbitMQ broker)
/**
 * Consumers as processes through a real broker restart (`rabbitmqctl stop_app` / `start_app`): the
 * one case of the consumer-process suites that stops the shared broker, in a file of its own so that
 * only it runs alone and consumers.http.test.ts runs beside the rest of the suite (their shared
 * fixture: consumerProcessFixture.ts).
 */
import { execFileSync } from 'node:child_process';
import { consumerProcessFixture } from './consumerProcessFixture.js';
import { ConsumerProcess, QUEUE_MODES, waitFor } from './support.js';

const mode = QUEUE_MODES.find((m) => m.name === 'amqp')!;

describe(`Async consumers as processes on the ${mode.name} queue, the broker restarted${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
  this.timeout(90_000);
  const f = consumerProcessFixture(mode);
  const { consumers, output } = f;

  // The db queue's counterpart, the database going away, is the consumer's transient retry.
  // With the default batch size: a batch in hand when the broker stops either committed (its
  // redelivered messages are then acknowledged without running) or did not (they run once).
  it('should really survive `rabbitmqctl stop_app` / `start_app` (only with TEST_AMQP_RESTART=1: it stops the shared broker)', async function () {
    if (process.env.TEST_AMQP_RESTART !== '1') return this.skip();
    const uuid = await f.createBulk('restart');
    consumers.push(
      ConsumerProcess.spawn(f.d.t.databaseUrl, f.options),
      ConsumerProcess.spawn(f.d.t.databaseUrl, f.options),
    );
    await Promise.all(consumers.map((c) => c.ready()));
    await waitFor('the first operations', f.progressed(uuid, 10), 30_000, output);
    execFileSync('rabbitmqctl', ['stop_app'], { stdio: 'ignore', timeout: 60_000 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      execFileSync('rabbitmqctl', ['start_app'], { stdio: 'ignore', timeout: 60_000 });
      execFileSync('rabbitmqctl', ['await_startup'], { stdio: 'ignore', timeout: 60_000 });
    }
    await waitFor('the bulk to drain after the restart', f.drained(uuid), 60_000, output);
    await f.expectAppliedOnce('restart', uuid);
  });
});
