/**
 * The delivery consumer as an operator runs it (`queue:consumers:start event.delivery`, its own
 * process), SIGKILLed mid-way and started again: every event of a committed request arrives at
 * least once (duplicates carry the same webhook-id), none of a rolled-back one. On the db queue,
 * and on RabbitMQ with TEST_AMQP_URL. And its `/metrics` (--metrics-port).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { deleteModuleTopology } from '../../../app/framework/queue/moduleQueue.js';
import { EVENT_TOPICS } from '../../../modules/Dispensary/Eventing/Model/EventQueue.js';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { QUEUE_MODES, type QueueMode } from '../AsynchronousOperations/support.js';
import { ok } from '../Recommendation/support.js';
import { ADD_ITEMS, WebhookWorld } from '../Webhooks/support.js';
import { ITEMS_ADDED } from './support.js';

const SECRET = `whsec_${Buffer.from('event delivery secret, 32 bytes!').toString('base64')}`;

class DeliveryProcess {
  readonly output: string[] = [];
  private readonly exited: Promise<unknown>;

  constructor(databaseUrl: string, queue: ReturnType<QueueMode['options']>, args: string[] = []) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      QUEUE_PREFIX: queue.queuePrefix,
      DB_QUEUE_LOCK_TIMEOUT_MS: String(queue.dbQueueLockTimeoutMs ?? 2000),
      EVENT_LEASE_MS: '1500',
      EVENT_TIMEOUT_MS: '1000',
      EVENT_RETRY_SCHEDULE: '50ms,100ms,200ms,400ms,800ms,1s,2s',
      LOG_LEVEL: 'info',
    };
    if (queue.amqpUrl) env.AMQP_URL = queue.amqpUrl;
    else delete env.AMQP_URL;
    delete env.METRICS_PORT;
    const cli = path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js');
    this.child = spawn(process.execPath, [cli, 'queue:consumers:start', 'event.delivery', ...args], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
    this.child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  readonly child: ChildProcess;

  async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}

async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  context: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect.fail(`timed out waiting for ${what}\n${context()}`);
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

for (const mode of QUEUE_MODES) {
  describe(`Eventing: a delivery consumer killed mid-way (${mode.name} queue)`, function () {
    this.timeout(120_000);
    const queue = mode.options();
    let w: WebhookWorld;
    let receiver: WebhookReceiver;
    let veto: WebhookReceiver;
    const processes: DeliveryProcess[] = [];
    /**
     * The consumer that finished the first case's deliveries, started with --metrics-port: the
     * /metrics case (which needs the first case's subscription anyway) goes on with it rather
     * than starting one more process (seconds of CPU each); were it gone, the case starts its own.
     */
    let serving: { consumer: DeliveryProcess; port: number } | undefined;

    before(async function () {
      if (mode.unavailable) return this.skip();
      w = await WebhookWorld.start(queue);
      await w.d.products('K-1', 'K-OK', 'K-NO');
      receiver = await WebhookReceiver.start();
      receiver.secret = SECRET;
      veto = await WebhookReceiver.start();
    });
    after(async () => {
      await Promise.all(processes.map((p) => p.stop('SIGKILL')));
      await receiver?.stop();
      await veto?.stop();
      await w?.stop();
      if (queue.amqpUrl) await deleteModuleTopology(queue.amqpUrl, queue.queuePrefix, EVENT_TOPICS[0], EVENT_TOPICS);
    });

    it('should deliver every committed event at least once and none of a rolled-back request', async () => {
      const subscribed = await w.d
        .request()
        .post('/rest/V1/eventing/eventSubscribe')
        .set('Authorization', `Bearer ${w.adminToken}`)
        .send({
          event: {
            name: ITEMS_ADDED,
            destination: receiver.url('/events'),
            secret: SECRET,
            fields: [{ name: 'recommendation.recommendation_id' }, { name: 'added' }],
          },
        });
      expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(200);
      // Requests adding K-NO are vetoed by an after hook once their event is in the outbox: they roll back.
      veto.answer = (call) => {
        const items = (call.body as { recommendation: { items: { sku: string }[] } }).recommendation.items;
        return items.some((item) => item.sku === 'K-NO')
          ? { json: { op: 'exception', message: 'vetoed' } }
          : { json: { op: 'success' } };
      };
      await w.subscribe({ webhook_method: ADD_ITEMS, webhook_type: 'after', url: veto.url() });
      // Slow answers, so that the kill lands while deliveries are in flight.
      receiver.answer = () => ({ status: 200, raw: '', delayMs: 150 });

      const committed = new Set<string>();
      for (let i = 0; i < 12; i++) {
        const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'K-1', qty: 1 }] } });
        ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-OK', qty: 1 }] } }));
        committed.add(r.recommendation_id);
        const refused = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-NO', qty: 1 }] } });
        expect(refused.status).to.equal(400);
      }
      const outbox = (await w.d.t.app.knex('event_outbox').select('event_uuid')) as { event_uuid: string }[];
      expect(outbox).to.have.length(12);

      const first = new DeliveryProcess(w.d.t.databaseUrl, queue);
      processes.push(first);
      const context = () => processes.map((p) => p.output.join('')).join('\n---\n');
      await waitFor('a few deliveries', () => receiver.received.length >= 3, 60_000, context);
      await first.stop('SIGKILL');
      const metricsPort = await freePort();
      const second = new DeliveryProcess(w.d.t.databaseUrl, queue, ['--metrics-port', String(metricsPort)]);
      processes.push(second);
      await waitFor(
        'every event delivered',
        async () =>
          Number(
            (
              (await w.d.t.app.knex('event_outbox').where({ status: 'delivered' }).count({ n: '*' })) as { n: number }[]
            )[0]!.n,
          ) === 12,
        60_000,
        context,
      );
      // Every event is delivered: nothing more arrives. It serves on for the /metrics case.
      serving = { consumer: second, port: metricsPort };

      const received = receiver.received.map(
        (call) =>
          call.body as {
            data: { recommendation: { recommendation_id: string }; added: { sku: string }[] };
          },
      );
      expect(receiver.received.every((call) => call.verified)).to.equal(true);
      expect(new Set(received.map((body) => body.data.recommendation.recommendation_id))).to.deep.equal(committed);
      expect(received.flatMap((body) => body.data.added.map((item) => item.sku))).not.to.include('K-NO');
      // Any duplicate (the delivery the kill interrupted) carries the same webhook-id as the first.
      expect(new Set(receiver.received.map((call) => call.headers['webhook-id']))).to.deep.equal(
        new Set(outbox.map((row) => row.event_uuid)),
      );
    });

    it('should serve /metrics with the deliveries by outcome when started with --metrics-port', async () => {
      // A subscription of its own (an alias of the event), so that its counts are this case's
      // alone: the consumer kept from the case above counts a delivery once its row is settled, so
      // one of that case's could still be counted after this case first read the figures.
      const METERED = 'metrics_case_items_added';
      const subscribed = await w.d
        .request()
        .post('/rest/V1/eventing/eventSubscribe')
        .set('Authorization', `Bearer ${w.adminToken}`)
        .send({ event: { name: METERED, parent: ITEMS_ADDED, destination: receiver.url('/metered'), secret: SECRET } });
      expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(200);
      const metricsOf = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const delivered = new RegExp(
        `event_delivery_attempts_total\\{subscription="${METERED}",outcome="delivered"\\} (\\d+)`,
      );
      const timed = new RegExp(
        `event_delivery_duration_seconds_count\\{subscription="${METERED}",outcome="delivered"\\} (\\d+)`,
      );
      const counted = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
      const alive = serving?.consumer.child.exitCode === null ? serving : undefined;
      serving = undefined;
      const port = alive?.port ?? (await freePort());
      // The deliveries it made before this case (none for a consumer of its own).
      const before = alive ? await metricsOf(port) : '';
      const consumer =
        alive?.consumer ?? new DeliveryProcess(w.d.t.databaseUrl, queue, ['--metrics-port', String(port)]);
      if (!alive) processes.push(consumer);
      const context = () => consumer.output.join('');
      await w.d.t.app.knex('event_outbox').delete();
      receiver.answer = () => ({ status: 200, raw: '' });
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'K-1', qty: 1 }] } });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-OK', qty: 2 }] } }));
      // Counted once the row is settled: wait for the count itself, not for the row.
      let text = '';
      await waitFor(
        'the event delivered and counted',
        async () => {
          // A consumer of its own may not listen yet.
          const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
          if (!res) return false;
          expect(res.status).to.equal(200);
          text = await res.text();
          return counted(text, delivered) > counted(before, delivered);
        },
        60_000,
        context,
      );
      const settled = await w.d.t.app.knex('event_outbox').where({ subscription_name: METERED, status: 'delivered' });
      expect(settled).to.have.length(1);
      // The one delivery of this case, counted by outcome and timed.
      expect(text).to.match(delivered, context());
      expect(counted(text, delivered) - counted(before, delivered), context()).to.equal(1);
      expect(text).to.match(timed);
      expect(counted(text, timed) - counted(before, timed)).to.equal(1);
      expect(text).to.include('process_cpu_user_seconds_total');
      await consumer.stop('SIGTERM');
      expect(consumer.child.exitCode, context()).to.equal(0);
      await fetch(`http://127.0.0.1:${port}/metrics`).then(
        () => expect.fail('the metrics server should close with the consumer'),
        () => undefined,
      );
    });
  });
}
