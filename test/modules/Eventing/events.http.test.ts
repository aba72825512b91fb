/**
 * Asynchronous events (issue 19): subscriptions through Adobe's eventing route and the command
 * line, the transactional outbox (a rolled-back request records nothing), delivery through the
 * queue (the outbox relay and the consumer; db queue, and RabbitMQ with TEST_AMQP_URL) to a real
 * receiver with Standard Webhooks signatures, retries with backoff, dead letters, per-entity
 * order, priority. The delivery consumer runs in this process here; events.process.http.test.ts
 * runs it as its own process and SIGKILLs it.
 */
import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { Logger, QueueConnection } from '../../../app/framework/index.js';
import type { EventQueue } from '../../../modules/Dispensary/Eventing/Model/EventQueue.js';
import { EVENT_TOPICS } from '../../../modules/Dispensary/Eventing/Model/EventQueue.js';
import type { Outbox } from '../../../modules/Dispensary/Eventing/Model/Outbox.js';
import { OutboxRelay } from '../../../modules/Dispensary/Eventing/Model/OutboxRelay.js';
import { deleteModuleTopology } from '../../../app/framework/queue/moduleQueue.js';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { deleteTopology, QUEUE_MODES } from '../AsynchronousOperations/support.js';
import { ok, type Recommendation } from '../Recommendation/support.js';
import { ADD_ITEMS, WebhookWorld } from '../Webhooks/support.js';
import { ITEMS_ADDED, testDeliveryConsumer } from './support.js';

const SECRET = `whsec_${Buffer.from('event delivery secret, 32 bytes!').toString('base64')}`;

for (const mode of QUEUE_MODES) {
  describe(`Eventing: subscriptions, outbox and delivery (${mode.name} queue)`, function () {
    this.timeout(60_000);
    const options = mode.options();
    let w: WebhookWorld;
    let receiver: WebhookReceiver;
    let r: Recommendation;

    const outboxRows = () =>
      w.d.t.app.knex('event_outbox').orderBy('outbox_id') as Promise<
        { status: string; attempts: number; event_uuid: string }[]
      >;
    /** A consumer in this process with short delays (di.xml's values come from EVENT_* settings). */
    const consumer = (maxAttempts = 3, registry = new Registry(), concurrency = 8) =>
      testDeliveryConsumer(w.d.t, {
        schedule: Array.from({ length: maxAttempts - 1 }, () => 20),
        registry,
        concurrency,
      });
    /** Runs the consumer until no event is pending any more (bounded), then stops it. */
    const drain = async (
      c = consumer(),
      timeoutMs = 20_000,
      until = async () => !(await outboxRows()).some((row) => row.status === 'pending'),
    ) => {
      const stop = new AbortController();
      const running = c.run({ signal: stop.signal });
      try {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline && !(await until())) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        stop.abort();
        await running;
      }
    };
    const subscribe = (event: Record<string, unknown>) =>
      w.d
        .request()
        .post('/rest/V1/eventing/eventSubscribe')
        .set('Authorization', `Bearer ${w.adminToken}`)
        .send({ event });

    before(async function () {
      if (mode.unavailable) return this.skip();
      w = await WebhookWorld.start(options);
      await w.d.products('E-1', 'E-2', 'E-3', 'E-4', 'E-5', 'E-6');
      receiver = await WebhookReceiver.start();
      receiver.secret = SECRET;
    });
    after(async () => {
      await receiver?.stop();
      await w?.stop();
      if (options.amqpUrl) {
        await deleteTopology(options.amqpUrl, options.queuePrefix);
        await deleteModuleTopology(options.amqpUrl, options.queuePrefix, EVENT_TOPICS[0], EVENT_TOPICS);
      }
    });
    beforeEach(async () => {
      await w.d.t.app.knex('event_outbox').delete();
      await w.d.t.app.knex('event_subscription').delete();
      r = await w.d.recommendation({ recommendation: { items: [{ sku: 'E-1', qty: 1 }] } });
      receiver.received.length = 0;
      receiver.answer = () => ({ status: 204, raw: '' });
    });
    afterEach(async () => w.clear());

    it('should subscribe with the admin token, answer the secret once, and list without it', async () => {
      const anonymous = await w.d
        .request()
        .post('/rest/V1/eventing/eventSubscribe')
        .send({ event: { name: ITEMS_ADDED, destination: receiver.url() } });
      expect(anonymous.status).to.equal(401);
      const res = await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events') });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.secret).to.match(/^whsec_/);
      const list = await w.d
        .request()
        .get('/rest/V1/eventing/getEventSubscriptions')
        .set('Authorization', `Bearer ${w.adminToken}`);
      expect(list.body).to.deep.equal([
        {
          name: ITEMS_ADDED,
          parent: null,
          fields: [],
          rules: [],
          destination: receiver.url('/events'),
          priority: false,
          format: 'standardwebhooks',
          source: 'api',
          status: 'enabled',
          status_reason: null,
        },
      ]);
      const refused = await subscribe({ name: ITEMS_ADDED, destination: 'http://169.254.169.254/' });
      expect(refused.status).to.equal(400);
    });

    it('should record the event with the change and deliver it signed, with only the subscribed fields', async () => {
      expect(
        (
          await subscribe({
            name: ITEMS_ADDED,
            destination: receiver.url('/events'),
            secret: SECRET,
            fields: [{ name: 'recommendation.recommendation_id' }, { name: 'added' }],
          })
        ).status,
      ).to.equal(200);
      const added = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 2 }] } }));
      const rows = await outboxRows();
      expect(rows.map((row) => row.status)).to.deep.equal(['pending']);
      const registry = new Registry();
      await drain(consumer(3, registry));
      expect(receiver.received).to.have.length(1);
      const [call] = receiver.received;
      expect(call!.verified).to.equal(true);
      expect(call!.headers['webhook-id']).to.equal(rows[0]!.event_uuid);
      const body = call!.body as { type: string; timestamp: string; data: unknown };
      expect(Object.keys(body)).to.deep.equal(['type', 'timestamp', 'data']);
      expect(body.type).to.equal(ITEMS_ADDED);
      expect(body.data).to.deep.equal({
        recommendation: { recommendation_id: r.recommendation_id },
        added: [added.items.find((item) => item.sku === 'E-2')],
      });
      expect((await outboxRows()).map((row) => row.status)).to.deep.equal(['delivered']);
      expect(await registry.metrics()).to.match(
        new RegExp(`event_delivery_attempts_total\\{subscription="${ITEMS_ADDED}",outcome="delivered"\\} 1`),
      );
    });

    it('should record nothing for a request that rolls back', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events'), secret: SECRET });
      // An after webhook on Add Items vetoes once the service (and its event) ran: the transaction rolls back.
      const hook = await WebhookReceiver.start();
      hook.answer = () => ({ json: { op: 'exception', message: 'No.' } });
      try {
        await w.subscribe({ webhook_method: ADD_ITEMS, webhook_type: 'after', url: hook.url() });
        const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 2 }] } });
        expect(res.status).to.equal(400);
        expect(hook.received).to.have.length(1);
      } finally {
        await hook.stop();
      }
      expect(await outboxRows()).to.deep.equal([]);
    });

    it('should retry a failing destination with backoff, keep the webhook-id, and dead-letter after the last attempt', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events'), secret: SECRET });
      receiver.answer = () => ({ status: 500, raw: 'down' });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 2 }] } }));
      await drain(consumer(3));
      expect(receiver.received).to.have.length(3);
      expect(new Set(receiver.received.map((call) => call.headers['webhook-id'])).size).to.equal(1);
      expect((await outboxRows()).map((row) => [row.status, row.attempts])).to.deep.equal([['dead', 3]]);
      const listed = await w.d.t.cli('events:dead-letter:list');
      expect(listed.out.join('\n')).to.include('3 attempt(s)\thttp 500');
      receiver.answer = () => ({ status: 200, raw: '' });
      const retried = await w.d.t.cli('events:dead-letter:retry', '--all');
      expect(retried.out.join('\n')).to.include('1 event(s)');
      await drain();
      expect(receiver.received).to.have.length(4);
      expect((await outboxRows()).map((row) => row.status)).to.deep.equal(['delivered']);
    });

    it('events:dead-letter:retry should send again the dead letters named by id', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events'), secret: SECRET });
      receiver.answer = () => ({ status: 500, raw: 'down' });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 2 }] } }));
      await drain(consumer(3));
      const rows = w.d.t.app.knex('event_outbox').select('outbox_id', 'status');
      const [dead] = (await rows) as { outbox_id: number; status: string }[];
      expect(dead!.status).to.equal('dead');
      const refused = await w.d.t.cli('events:dead-letter:retry', 'x');
      expect([refused.code, refused.err.join('\n')]).to.deep.equal([1, 'Error: Ids are whole numbers']);
      receiver.answer = () => ({ status: 200, raw: '' });
      const retried = await w.d.t.cli('events:dead-letter:retry', String(dead!.outbox_id));
      expect([retried.code, retried.out]).to.deep.equal([0, ['1 event(s) will be delivered again.']]);
      await drain();
      expect((await outboxRows()).map((row) => row.status)).to.deep.equal(['delivered']);
    });

    it("should deliver one entity's events in order, even when the first needs retries", async () => {
      await subscribe({
        name: ITEMS_ADDED,
        destination: receiver.url('/events'),
        secret: SECRET,
        fields: [{ name: 'added' }],
      });
      let failures = 2;
      receiver.answer = (call) => {
        const sku = (call.body as { data: { added: { sku: string }[] } }).data.added[0]?.sku;
        return sku === 'E-2' && failures-- > 0 ? { status: 503, raw: '' } : { status: 200, raw: '' };
      };
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 1 }] } }));
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-3', qty: 1 }] } }));
      await drain(consumer(5));
      const delivered = receiver.received.map(
        (call) => (call.body as { data: { added: { sku: string }[] } }).data.added[0]!.sku,
      );
      expect(delivered).to.deep.equal(['E-2', 'E-2', 'E-2', 'E-3']);
    });

    it("should deliver a run of one entity's events in order, the consumer following the chain", async () => {
      await subscribe({
        name: ITEMS_ADDED,
        destination: receiver.url('/events'),
        secret: SECRET,
        fields: [{ name: 'added' }],
      });
      const skus = ['E-2', 'E-3', 'E-4', 'E-5', 'E-6'];
      for (const sku of skus) ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku, qty: 1 }] } }));
      await drain();
      const delivered = receiver.received.map(
        (call) => (call.body as { data: { added: { sku: string }[] } }).data.added[0]!.sku,
      );
      expect(delivered).to.deep.equal(skus);
      expect(new Set(receiver.received.map((call) => call.headers['webhook-id'])).size).to.equal(5);
    });

    it('two consumers should deliver every event of 200 entities exactly once, in order per entity', async function () {
      this.timeout(240_000);
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events'), secret: SECRET });
      const entities = 200;
      const perEntity = 5;
      const now = Date.now();
      // Round-robin over the entities, as writes arrive: each entity's chain interleaved with the others'.
      const rows = Array.from({ length: entities * perEntity }, (_, i) => {
        const [entity, seq] = [i % entities, Math.floor(i / entities)];
        return {
          event_uuid: `many-${entity}-${seq}`,
          subscription_name: ITEMS_ADDED,
          event_name: ITEMS_ADDED,
          entity_key: `recommendation:${entity}`,
          payload: JSON.stringify({ type: ITEMS_ADDED, timestamp: new Date(now).toISOString(), data: { entity, seq } }),
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          lease_until: 0,
          created_at: now,
          format: 'standardwebhooks',
        };
      });
      for (let i = 0; i < rows.length; i += 100) await w.d.t.app.knex('event_outbox').insert(rows.slice(i, i + 100));
      // Two consumers as two processes would run them (leases long enough that a slow moment under load is no redelivery).
      const two = [0, 1].map(() => testDeliveryConsumer(w.d.t, { schedule: [20], timeoutMs: 10_000, leaseMs: 60_000 }));
      const stop = new AbortController();
      const running = two.map((c) => c.run({ signal: stop.signal }));
      try {
        const deadline = Date.now() + 200_000;
        while (receiver.received.length < rows.length && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        // Anything more would be a duplicate: give it a moment to show.
        await new Promise((resolve) => setTimeout(resolve, 300));
      } finally {
        stop.abort();
        await Promise.all(running);
      }
      const ids = receiver.received.map((call) => String(call.headers['webhook-id']));
      expect(ids).to.have.length(rows.length);
      expect(new Set(ids).size).to.equal(rows.length);
      const seen = new Map<number, number[]>();
      for (const call of receiver.received) {
        const { entity, seq } = (call.body as { data: { entity: number; seq: number } }).data;
        seen.set(entity, [...(seen.get(entity) ?? []), seq]);
      }
      expect(seen.size).to.equal(entities);
      const inOrder = Array.from({ length: perEntity }, (_, seq) => seq);
      for (const [entity, seqs] of seen) expect(seqs, `entity ${entity}`).to.deep.equal(inOrder);
      const statuses = (await w.d.t.app.knex('event_outbox').select('status')) as { status: string }[];
      expect(statuses.every((row) => row.status === 'delivered')).to.equal(true);
    });

    it('should publish again an event whose message was lost, and drop a duplicate message of a delivered one', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events'), secret: SECRET });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 2 }] } }));
      // A relay leased the row and died before publishing: no message exists. The lease runs out, a relay publishes it.
      await w.d.t.app.knex('event_outbox').update({ lease_until: Date.now() + 300, lease_token: 'p:lost' });
      await drain();
      expect(receiver.received).to.have.length(1);
      const [row] = (await w.d.t.app.knex('event_outbox')) as { outbox_id: number; status: string }[];
      expect(row!.status).to.equal('delivered');
      // A message published twice (a relay that timed out on the broker's confirm, then published again) arrives again: dropped.
      const queue = w.d.t.app.get<EventQueue>('Dispensary\\Eventing\\Model\\EventQueue').open();
      try {
        await queue.publish(EVENT_TOPICS[0], [JSON.stringify({ id: Number(row!.outbox_id), token: 'p:duplicate' })]);
        expect(await consumer().run({ signal: AbortSignal.timeout(10_000), maxMessages: 1 })).to.equal(1);
        expect(receiver.received).to.have.length(1);
        expect((await queue.depth(`${options.queuePrefix}${EVENT_TOPICS[0]}`)).ready).to.equal(0);
      } finally {
        await queue.close();
      }
    });

    it('should send the events of a priority subscription ahead of a backlog of ordinary ones', async () => {
      await subscribe({
        name: ITEMS_ADDED,
        destination: receiver.url('/events'),
        secret: SECRET,
        fields: [{ name: 'added' }],
      });
      receiver.answer = () => ({ status: 200, raw: '', delayMs: 60 });
      // A backlog: ten recommendations' events, ordinary, one at a time through the ordinary queue.
      for (let i = 0; i < 10; i++) {
        const other = await w.d.recommendation({ recommendation: { items: [{ sku: 'E-1', qty: 1 }] } });
        ok(await w.d.add(other.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 1 }] } }));
      }
      const stop = new AbortController();
      // One delivery at a time per queue: the ordinary backlog queues up behind it, the priority event does not.
      const running = consumer(3, new Registry(), 1).run({ signal: stop.signal });
      try {
        const deadline = Date.now() + 20_000;
        while (receiver.received.length < 2 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 10));
        // Now a priority subscription, and an event for it: it overtakes the ordinary events still queued.
        const priority = await subscribe({
          name: 'priority.items_added',
          parent: ITEMS_ADDED,
          destination: receiver.url('/priority'),
          secret: SECRET,
          priority: true,
          fields: [{ name: 'added' }],
        });
        expect(priority.status, JSON.stringify(priority.body)).to.equal(200);
        ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-3', qty: 1 }] } }));
        while ((await outboxRows()).some((row) => row.status === 'pending') && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        stop.abort();
        await running;
      }
      const paths = receiver.received.map((call) => call.path);
      expect(paths.filter((path) => path === '/events')).to.have.length(11);
      const first = paths.indexOf('/priority');
      // The ordinary event of the same request (recorded with it) and most of the backlog come after it.
      expect(first, paths.join(' ')).to.be.greaterThan(-1).and.lessThan(6);
      const rows = (await w.d.t.app.knex('event_outbox').where({ subscription_name: 'priority.items_added' })) as {
        priority: number | boolean;
      }[];
      expect(rows.map((row) => Number(row.priority))).to.deep.equal([1]);
    });

    it('should keep at most maxInFlight events published and not yet taken by a consumer', async () => {
      const db = w.d.t.app.knex;
      const now = Date.now();
      const base = {
        subscription_name: 'in-flight',
        event_name: 'x',
        payload: '{}',
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_until: 0,
        created_at: now,
      };
      await db('event_outbox').insert(
        [1, 2, 3, 4, 5].map((n) => ({ ...base, event_uuid: `in-flight-${n}`, entity_key: `k:${n}` })),
      );
      const published: string[] = [];
      const queue = {
        publish: async (_topic: string, bodies: readonly string[]) => void published.push(...bodies),
      } as unknown as QueueConnection;
      const relay = new OutboxRelay(
        w.d.t.app.get<Outbox>('Dispensary\\Eventing\\Model\\Outbox'),
        w.d.t.app.get<Logger>('Framework\\Logger\\LoggerInterface'),
        2,
      );
      try {
        expect(await relay.publishDue(queue, 60_000)).to.equal(2);
        expect(await relay.publishDue(queue, 60_000)).to.equal(0);
        // A consumer took one (its own lease): room for one more.
        await db('event_outbox').where({ event_uuid: 'in-flight-1' }).update({ lease_token: 'd:consumer' });
        expect(await relay.publishDue(queue, 60_000)).to.equal(1);
        expect(published.map((body) => (JSON.parse(body) as { token: string }).token.slice(0, 2))).to.deep.equal([
          'p:',
          'p:',
          'p:',
        ]);
      } finally {
        await db('event_outbox').where({ subscription_name: 'in-flight' }).delete();
      }
    });

    it('events:subscribe, events:list and events:unsubscribe should manage subscriptions from the command line', async () => {
      const sub = await w.d.t.cli(
        'events:subscribe',
        ITEMS_ADDED,
        '--destination',
        receiver.url('/cli'),
        '--field',
        'added',
        '--rule',
        'recommendation.store_id:equal:1',
      );
      expect(sub.code, sub.err.join('\n')).to.equal(0);
      expect(sub.out.join('\n')).to.match(/Signing secret \(shown once\): whsec_/);
      const list = await w.d.t.cli('events:list');
      expect(list.out.join('\n')).to.include(`${ITEMS_ADDED} -> ${receiver.url('/cli')} [added, 1 rule(s)] from api`);
      const unsub = await w.d.t.cli('events:unsubscribe', ITEMS_ADDED);
      expect(unsub.code).to.equal(0);
      expect((await w.d.t.cli('events:list')).out).to.include('No event subscriptions.');
    });

    it('should delete delivered events older than the retention when idle, keeping pending and dead ones and newer deliveries', async () => {
      const db = w.d.t.app.knex;
      const now = Date.now();
      const base = {
        subscription_name: 'retention',
        event_name: 'x',
        entity_key: 'k',
        payload: '{}',
        attempts: 1,
        next_attempt_at: now,
        lease_until: 0,
        created_at: now,
      };
      await db('event_outbox').insert([
        { ...base, event_uuid: 'old-delivered', status: 'delivered', delivered_at: now - 3 * 3_600_000 },
        { ...base, event_uuid: 'new-delivered', status: 'delivered', delivered_at: now - 60_000 },
        { ...base, event_uuid: 'old-dead', status: 'dead', delivered_at: null },
        { ...base, event_uuid: 'old-pending', status: 'pending', next_attempt_at: now + 3_600_000, delivered_at: null },
      ]);
      const c = testDeliveryConsumer(w.d.t, { schedule: [20, 20], retentionHours: 2 });
      const uuids = async () =>
        (
          (await db('event_outbox').where({ subscription_name: 'retention' }).orderBy('event_uuid')) as {
            event_uuid: string;
          }[]
        ).map((row) => row.event_uuid);
      await c.run({ signal: AbortSignal.timeout(100), maxMessages: 1 });
      expect(await uuids()).to.deep.equal(['new-delivered', 'old-dead', 'old-pending']);
      await db('event_outbox').where({ subscription_name: 'retention' }).delete();
    });

    it('should send nothing when the rules do not hold', async () => {
      await subscribe({
        name: ITEMS_ADDED,
        destination: receiver.url('/events'),
        secret: SECRET,
        rules: [{ field: 'recommendation.store_id', operator: 'equal', value: '999' }],
      });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'E-2', qty: 2 }] } }));
      expect(await outboxRows()).to.deep.equal([]);
    });
  });
}
