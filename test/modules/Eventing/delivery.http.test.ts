/**
 * Events an integrator can trust (issue 26, points 1, 4 and 6), through the real app, a real
 * receiver verifying every call with the `standardwebhooks` library, the db queue and RabbitMQ
 * (TEST_AMQP_URL), on the test database (SQLite, or TEST_DATABASE_URL):
 *
 * 1. who receives an event is decided from committed state: 100 writes right after a REST
 *    subscription all arrive, even to a consumer that read the subscriptions before (another
 *    process's view); a subscription removed mid-way receives nothing once the removal commits,
 *    and lost nothing before it;
 * 4. retries: the default schedule is the documented one and outlasts a day, `410 Gone` disables
 *    the subscription, `Retry-After` is honoured on 429 and 503, a hanging destination does not
 *    hold the deliveries of another;
 * 6. the envelope: Standard Webhooks `{type, timestamp, data}` by default, CloudEvents 1.0
 *    structured mode per subscription (REST and CLI).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { Logger } from '../../../app/framework/index.js';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { readDeploymentConfig } from '../../../app/bootstrap/config/DeploymentConfig.js';
import { DEFAULT_EVENT_RETRY_SCHEDULE, durationList } from '../../../app/bootstrap/config/settings.js';
import { deleteModuleTopology } from '../../../app/framework/queue/moduleQueue.js';
import {
  DEFAULT_RETRY_SCHEDULE_MS,
  DeliveryConsumer,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
} from '../../../modules/Dispensary/Eventing/Model/DeliveryConsumer.js';
import type { EventQueue } from '../../../modules/Dispensary/Eventing/Model/EventQueue.js';
import { EVENT_TOPICS } from '../../../modules/Dispensary/Eventing/Model/EventQueue.js';
import type { Outbox } from '../../../modules/Dispensary/Eventing/Model/Outbox.js';
import { OutboxRelay } from '../../../modules/Dispensary/Eventing/Model/OutboxRelay.js';
import type { IoEventsXmlConfig } from '../../../modules/Dispensary/Eventing/Model/IoEventsXmlConfig.js';
import { SubscriptionRegistry } from '../../../modules/Dispensary/Eventing/Model/SubscriptionRegistry.js';
import type { SubscriptionRepository } from '../../../modules/Dispensary/Eventing/Model/SubscriptionRepository.js';
import type { WebhookTransport } from '../../../modules/Dispensary/Webhooks/Model/WebhookTransport.js';
import { WebhookReceiver, type Received } from '../../support/webhookReceiver.js';
import { deleteTopology, QUEUE_MODES } from '../AsynchronousOperations/support.js';
import { ok, type Recommendation } from '../Recommendation/support.js';
import { WebhookWorld } from '../Webhooks/support.js';
import { ITEMS_ADDED } from './support.js';

const SECRET = `whsec_${Buffer.from('event delivery secret, 32 bytes!').toString('base64')}`;

interface OutboxRow {
  outbox_id: number;
  event_uuid: string;
  subscription_name: string;
  entity_key: string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: number | string;
}

describe('Eventing: the retry schedule and Retry-After (issue 26)', () => {
  it('should default to the schedule docs/operating.md documents, spanning more than a day', () => {
    const operating = readFileSync(path.join(PROJECT_ROOT, 'docs', 'operating.md'), 'utf8');
    const documented = /\| `EVENT_RETRY_SCHEDULE` \| `([^`]+)` \|/.exec(operating);
    expect(documented, 'EVENT_RETRY_SCHEDULE in docs/operating.md').to.not.equal(null);
    expect(documented![1]).to.equal(DEFAULT_EVENT_RETRY_SCHEDULE);
    const schedule = readDeploymentConfig({}, {}).eventRetrySchedule;
    expect(schedule).to.deep.equal(durationList('x', documented![1], ''));
    expect(schedule).to.deep.equal(DEFAULT_RETRY_SCHEDULE_MS);
    expect(schedule).to.deep.equal([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(schedule.reduce((sum, ms) => sum + ms, 0)).to.be.greaterThan(24 * 3_600_000);
    const docs = readFileSync(path.join(PROJECT_ROOT, 'docs', 'webhooks-and-events.md'), 'utf8');
    expect(docs).to.include(`EVENT_RETRY_SCHEDULE\` (\`${DEFAULT_EVENT_RETRY_SCHEDULE}\``);
  });

  it('should read EVENT_RETRY_SCHEDULE, and refuse a bad one and the settings it replaced, naming them', () => {
    expect(readDeploymentConfig({}, { EVENT_RETRY_SCHEDULE: '250ms, 2s,1m,1h,1d' }).eventRetrySchedule).to.deep.equal([
      250, 2000, 60_000, 3_600_000, 86_400_000,
    ]);
    expect(() => readDeploymentConfig({}, { EVENT_RETRY_SCHEDULE: '5s,soon' })).to.throw(/EVENT_RETRY_SCHEDULE/);
    expect(() => readDeploymentConfig({}, { EVENT_RETRY_SCHEDULE: '8d' })).to.throw(/at most 7d/);
    expect(() => readDeploymentConfig({}, { EVENT_MAX_ATTEMPTS: '8' })).to.throw(
      /EVENT_MAX_ATTEMPTS is no longer read: set EVENT_RETRY_SCHEDULE/,
    );
    expect(() => readDeploymentConfig({}, { EVENT_RETRY_BASE_MS: '1000' })).to.throw(/EVENT_RETRY_BASE_MS/);
  });

  it('should read Retry-After as seconds or an HTTP date, bounded to [0, 24 h]', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('120', now)).to.equal(120_000);
    expect(retryAfterMs(' 0 ', now)).to.equal(0);
    expect(retryAfterMs('Thu, 26 Nov 2026 14:00:00 GMT', now)).to.equal(2 * 3_600_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).to.equal(0);
    expect(retryAfterMs('999999999', now)).to.equal(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Fri, 25 Dec 2026 12:00:00 GMT', now)).to.equal(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(undefined, now)).to.equal(undefined);
    expect(retryAfterMs('soon', now)).to.equal(undefined);
    expect(retryAfterMs('-5', now)).to.equal(undefined);
    expect(retryAfterMs('1.5', now)).to.equal(undefined);
  });
});

for (const mode of QUEUE_MODES) {
  describe(`Eventing: events an integrator can trust (issue 26, ${mode.name} queue)`, function () {
    this.timeout(120_000);
    const options = mode.options();
    let w: WebhookWorld;
    let receiver: WebhookReceiver;

    const outboxRows = async (where: Partial<OutboxRow> = {}) =>
      (await w.d.t.app.knex('event_outbox').where(where).orderBy('outbox_id')) as OutboxRow[];
    const service = <T>(name: string) => w.d.t.app.get<T>(`Dispensary\\Eventing\\Model\\${name}`);
    /**
     * A consumer in this process with short delays. `registry`: its own view of the subscriptions
     * (as another process has), by default one that read them already.
     */
    const consumer = (
      settings: {
        schedule?: number[];
        timeoutMs?: number;
        concurrency?: number;
        perSubscription?: number;
        relay?: OutboxRelay;
        registry?: SubscriptionRegistry;
      } = {},
    ) =>
      new DeliveryConsumer(
        service<Outbox>('Outbox'),
        settings.registry ?? service<SubscriptionRegistry>('SubscriptionRegistry'),
        w.d.t.app.get<WebhookTransport>('Dispensary\\Webhooks\\Model\\WebhookTransport'),
        w.d.t.app.get<Logger>('Framework\\Logger\\LoggerInterface'),
        new Registry(),
        service<EventQueue>('EventQueue'),
        settings.relay ?? service<OutboxRelay>('OutboxRelay'),
        settings.schedule ?? [20, 20],
        settings.timeoutMs ?? 2000,
        Math.max(2000, (settings.timeoutMs ?? 0) + 1000),
        10,
        168,
        300_000,
        16,
        settings.concurrency ?? 8,
        settings.perSubscription ?? 8,
      );
    /** Another process's registry: its own instance, which has read the subscriptions (none yet). */
    const otherProcessRegistry = async () => {
      const registry = new SubscriptionRegistry(
        w.d.t.app.get<IoEventsXmlConfig>('Dispensary\\Eventing\\Model\\IoEventsXmlConfig'),
        service<SubscriptionRepository>('SubscriptionRepository'),
      );
      await registry.all();
      return registry;
    };
    /** Runs `c` while `during` runs, then until `until` holds (bounded), then stops it. */
    const running = async (
      c: DeliveryConsumer,
      until: () => Promise<boolean>,
      during: () => Promise<void> = async () => undefined,
      timeoutMs = 60_000,
    ) => {
      const stop = new AbortController();
      const run = c.run({ signal: stop.signal });
      try {
        await during();
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline && !(await until())) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        stop.abort();
        await run;
      }
    };
    const nothingPending = async () => !(await outboxRows()).some((row) => row.status === 'pending');
    const subscribe = (event: Record<string, unknown>) =>
      w.d
        .request()
        .post('/rest/V1/eventing/eventSubscribe')
        .set('Authorization', `Bearer ${w.adminToken}`)
        .send({ event: { secret: SECRET, ...event } });
    const subscribed = async (event: Record<string, unknown>) => {
      const res = await subscribe(event);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    const list = async () =>
      (
        await w.d
          .request()
          .get('/rest/V1/eventing/getEventSubscriptions')
          .set('Authorization', `Bearer ${w.adminToken}`)
      ).body as Record<string, unknown>[];
    const addTo = async (r: Recommendation) =>
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'D-2', qty: 1 }] } }));
    const ids = (calls: readonly Received[]) => calls.map((call) => String(call.headers['webhook-id']));
    /** The first arrival of each event, in arrival order (a redelivery repeats an id). */
    const firstArrivals = (calls: readonly Received[]) => [...new Set(ids(calls))];

    before(async function () {
      if (mode.unavailable) return this.skip();
      w = await WebhookWorld.start(options);
      await w.d.products('D-1', 'D-2');
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
      await w.d.t.app.knex('event_subscription_disabled').delete();
      receiver.received.length = 0;
      receiver.answer = () => ({ status: 204, raw: '' });
    });

    it('should deliver every one of 100 writes made with no pause right after subscribing over REST, to a consumer that read the subscriptions before', async () => {
      const recommendations: Recommendation[] = [];
      for (let i = 0; i < 4; i++)
        recommendations.push(await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } }));
      const c = consumer({ registry: await otherProcessRegistry() });
      await running(
        c,
        async () => (await outboxRows()).length === 100 && (await nothingPending()),
        async () => {
          await subscribed({
            name: ITEMS_ADDED,
            destination: receiver.url('/events'),
            fields: [{ name: 'recommendation.recommendation_id' }],
          });
          for (let i = 0; i < 100; i++) await addTo(recommendations[i % 4]!);
        },
      );
      const rows = await outboxRows();
      expect(rows).to.have.length(100);
      expect(rows.filter((row) => row.status !== 'delivered').map((row) => [row.status, row.last_error])).to.deep.equal(
        [],
      );
      expect(receiver.received.every((call) => call.verified)).to.equal(true);
      expect(new Set(ids(receiver.received))).to.deep.equal(new Set(rows.map((row) => row.event_uuid)));
      // Each recommendation's events arrived in the order they were recorded.
      const arrivals = firstArrivals(receiver.received);
      for (const r of recommendations) {
        const recorded = rows.filter((row) => row.entity_key === `recommendation:${r.recommendation_id}`);
        expect(recorded).to.have.length(25);
        const uuids = recorded.map((row) => row.event_uuid);
        expect(arrivals.filter((id) => uuids.includes(id))).to.deep.equal(uuids);
      }
    });

    it('should deliver nothing to a subscription after its removal commits, and lose none of its events before it, while 100 writes go on', async () => {
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } });
      const REMOVED = 'removed.items_added';
      let removedAt = -1;
      receiver.answer = async (call) => {
        // The removed subscription's receiver unsubscribes it at its 50th event, before answering it.
        if (
          call.path === '/removed' &&
          removedAt < 0 &&
          firstArrivals(receiver.received.filter((c) => c.path === '/removed')).length === 50
        ) {
          const res = await w.d
            .request()
            .post(`/rest/V1/eventing/eventUnsubscribe/${REMOVED}`)
            .set('Authorization', `Bearer ${w.adminToken}`);
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          removedAt = receiver.received.length;
        }
        return { status: 204, raw: '' };
      };
      const c = consumer({ registry: await otherProcessRegistry() });
      await running(
        c,
        async () => (await outboxRows({ subscription_name: ITEMS_ADDED })).length === 100 && (await nothingPending()),
        async () => {
          await subscribed({ name: ITEMS_ADDED, destination: receiver.url('/kept'), fields: [{ name: 'added' }] });
          await subscribed({
            name: REMOVED,
            parent: ITEMS_ADDED,
            destination: receiver.url('/removed'),
            fields: [{ name: 'added' }],
          });
          for (let i = 0; i < 100; i++) await addTo(r);
        },
      );
      expect(removedAt, 'the removed subscription received its 50th event').to.be.greaterThan(0);
      // Nothing arrived for it once the unsubscribe had committed.
      expect(receiver.received.slice(removedAt).filter((call) => call.path === '/removed')).to.deep.equal([]);
      // Before it, its first 50 events arrived, in order, none missing.
      const removedRows = await outboxRows({ subscription_name: REMOVED });
      const removedIds = firstArrivals(receiver.received.filter((call) => call.path === '/removed'));
      expect(removedIds).to.deep.equal(removedRows.slice(0, 50).map((row) => row.event_uuid));
      expect(removedRows.slice(0, 50).every((row) => row.status === 'delivered')).to.equal(true);
      // Its events recorded before the removal and not yet sent are dead letters, not sent later.
      expect(new Set(removedRows.slice(50).map((row) => `${row.status} ${row.last_error}`))).to.satisfy(
        (reasons: Set<string>) => reasons.size === 0 || (reasons.size === 1 && reasons.has('dead unsubscribed')),
      );
      // The other subscription received all 100, in order.
      const kept = await outboxRows({ subscription_name: ITEMS_ADDED });
      expect(kept.every((row) => row.status === 'delivered')).to.equal(true);
      expect(firstArrivals(receiver.received.filter((call) => call.path === '/kept'))).to.deep.equal(
        kept.map((row) => row.event_uuid),
      );
      expect(receiver.received.every((call) => call.verified)).to.equal(true);
    });

    it('should stop on 410 Gone: the event dead, the subscription disabled and listed so, nothing more recorded until it is subscribed again', async () => {
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } });
      await subscribed({ name: ITEMS_ADDED, destination: receiver.url('/gone') });
      receiver.answer = () => ({ status: 410, raw: '' });
      await addTo(r);
      await addTo(r);
      await running(consumer({ schedule: [20, 20, 20] }), nothingPending);
      // One call: the first event dead at its first attempt, the second dead-lettered unsent.
      expect(receiver.received).to.have.length(1);
      expect((await outboxRows()).map((row) => [row.status, row.attempts, row.last_error])).to.deep.equal([
        ['dead', 1, 'http 410 gone: subscription disabled'],
        ['dead', 1, `disabled: http 410 Gone from ${receiver.url('/gone')}`],
      ]);
      const [listed] = await list();
      expect([listed!.status, listed!.status_reason]).to.deep.equal([
        'disabled',
        `http 410 Gone from ${receiver.url('/gone')}`,
      ]);
      const cli = await w.d.t.cli('events:list');
      expect(cli.out.join('\n')).to.include('DISABLED (http 410 Gone from');
      await addTo(r);
      expect(await outboxRows()).to.have.length(2);
      // Subscribing again enables it.
      await subscribed({ name: ITEMS_ADDED, destination: receiver.url('/back') });
      expect((await list())[0]!.status).to.equal('enabled');
      await addTo(r);
      expect(await outboxRows({ status: 'pending' })).to.have.length(1);
    });

    it('should honour Retry-After on 503 (seconds) and 429 (HTTP date), and keep to the schedule on other statuses', async () => {
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } });
      await subscribed({ name: ITEMS_ADDED, destination: receiver.url('/busy') });
      const inTwoHours = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2 * 3_600_000);
      const answers = [
        { status: 503, raw: '', headers: { 'retry-after': '3600' } },
        { status: 429, raw: '', headers: { 'retry-after': inTwoHours.toUTCString() } },
        { status: 500, raw: '', headers: { 'retry-after': '3600' } },
      ];
      for (const answer of answers) {
        await w.d.t.app.knex('event_outbox').delete();
        receiver.received.length = 0;
        receiver.answer = () => answer;
        await addTo(r);
        const before = Date.now();
        await running(consumer({ schedule: [60_000, 60_000] }), async () =>
          (await outboxRows()).every((row) => row.attempts === 1),
        );
        const after = Date.now();
        const [row] = await outboxRows();
        expect([row!.status, row!.attempts, row!.last_error]).to.deep.equal(['pending', 1, `http ${answer.status}`]);
        const next = Number(row!.next_attempt_at);
        if (answer.status === 503) expect(next).to.be.within(before + 3_600_000, after + 3_600_000);
        else if (answer.status === 429)
          expect(next).to.be.within(inTwoHours.getTime() - 1000, inTwoHours.getTime() + 1000);
        else expect(next).to.be.within(before + 60_000, after + 60_000);
      }
    });

    it('should keep delivering to one destination while another hangs (the hanging one holds at most its share)', async () => {
      const hanging = await WebhookReceiver.start();
      hanging.secret = SECRET;
      hanging.answer = () => ({ hang: true });
      try {
        await subscribed({ name: ITEMS_ADDED, destination: hanging.url('/slow'), fields: [{ name: 'added' }] });
        await subscribed({
          name: 'fast.items_added',
          parent: ITEMS_ADDED,
          destination: receiver.url('/fast'),
          fields: [{ name: 'added' }],
        });
        for (let i = 0; i < 6; i++)
          await addTo(await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } }));
        const relay = new OutboxRelay(
          service<Outbox>('Outbox'),
          w.d.t.app.get<Logger>('Framework\\Logger\\LoggerInterface'),
          1000,
          2,
        );
        const c = consumer({ timeoutMs: 60_000, concurrency: 4, perSubscription: 2, relay });
        const stop = new AbortController();
        const run = c.run({ signal: stop.signal });
        try {
          const deadline = Date.now() + 30_000;
          while (
            Date.now() < deadline &&
            (await outboxRows({ subscription_name: 'fast.items_added', status: 'delivered' })).length < 6
          )
            await new Promise((resolve) => setTimeout(resolve, 20));
          expect(await outboxRows({ subscription_name: 'fast.items_added', status: 'delivered' })).to.have.length(6);
          // The hanging destination got at most its share (2) of calls, each still unanswered.
          expect(hanging.received.length).to.be.within(1, 2);
        } finally {
          stop.abort();
          await hanging.stop(); // its calls fail now: the consumer's slots are freed and it stops
          await run;
        }
        expect(receiver.received.every((call) => call.verified && call.path === '/fast')).to.equal(true);
      } finally {
        await hanging.stop().catch(() => undefined);
      }
    });

    it('should send the Standard Webhooks envelope by default and CloudEvents 1.0 to a subscription that asks, both verified', async () => {
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } });
      await subscribed({ name: ITEMS_ADDED, destination: receiver.url('/standard'), fields: [{ name: 'added' }] });
      await subscribed({
        name: 'ce.items_added',
        parent: ITEMS_ADDED,
        destination: receiver.url('/cloudevents'),
        fields: [{ name: 'added' }],
        format: 'cloudevents',
      });
      const refused = await subscribe({
        name: 'x.items_added',
        parent: ITEMS_ADDED,
        destination: receiver.url(),
        format: 'xml',
      });
      expect(refused.status).to.equal(400);
      const added = await addTo(r);
      await running(consumer(), nothingPending);
      const rows = await outboxRows();
      const byPath = (p: string) => receiver.received.find((call) => call.path === p)!;
      const data = { added: [added.items.find((item) => item.sku === 'D-2')] };

      const standard = byPath('/standard');
      expect(standard.verified).to.equal(true);
      expect(standard.headers['content-type']).to.equal('application/json');
      const row = rows.find((o) => o.subscription_name === ITEMS_ADDED)!;
      expect(standard.headers['webhook-id']).to.equal(row.event_uuid);
      const body = standard.body as Record<string, unknown>;
      expect(Object.keys(body)).to.deep.equal(['type', 'timestamp', 'data']);
      expect(body.type).to.equal(ITEMS_ADDED);
      expect(new Date(String(body.timestamp)).toISOString()).to.equal(body.timestamp);
      expect(body.data).to.deep.equal(data);

      const cloud = byPath('/cloudevents');
      expect(cloud.verified).to.equal(true);
      expect(cloud.headers['content-type']).to.equal('application/cloudevents+json');
      const ceRow = rows.find((o) => o.subscription_name === 'ce.items_added')!;
      expect(cloud.body).to.deep.equal({
        specversion: '1.0',
        id: ceRow.event_uuid,
        source: 'urn:dispensary:eventing',
        type: 'com.adobe.commerce.ce.items_added',
        time: (cloud.body as { time: string }).time,
        datacontenttype: 'application/json',
        subject: `recommendation:${r.recommendation_id}`,
        data,
      });
      expect(cloud.headers['webhook-id']).to.equal(ceRow.event_uuid);
      expect(new Date((cloud.body as { time: string }).time).toISOString()).to.equal(
        (cloud.body as { time: string }).time,
      );

      const formats = Object.fromEntries((await list()).map((s) => [s.name, s.format]));
      expect(formats).to.deep.equal({ [ITEMS_ADDED]: 'standardwebhooks', 'ce.items_added': 'cloudevents' });
    });

    it("should deliver, to the docs' example subscription, the events of the README's practice and no other", async () => {
      const docs = readFileSync(path.join(PROJECT_ROOT, 'docs', 'webhooks-and-events.md'), 'utf8');
      const section = docs.slice(docs.indexOf('## Events: subscriptions'));
      const example = /-d '(\{"event"[\s\S]*?)'\n/.exec(section);
      expect(example, 'the eventSubscribe example').to.not.equal(null);
      const { event } = JSON.parse(example![1]!) as { event: Record<string, unknown> };
      await subscribed({ ...event, destination: receiver.url('/docs') });
      // The README's first calls: the practice north_clinic, store id 2 on a new database.
      const store = await w.d.t.cli('store:create', '--code', 'north_clinic', '--name', 'North Clinic');
      expect(store.code, store.err.join('\n')).to.equal(0);
      expect((await w.d.t.cli('store:list')).out).to.include('2\tnorth_clinic\tNorth Clinic');
      const practice = await w.d.recommendation(
        { recommendation: { items: [{ sku: 'D-1', qty: 1 }] } },
        'north_clinic',
      );
      ok(
        await w.d.add(
          practice.recommendation_id,
          { recommendation: { items: [{ sku: 'D-2', qty: 1 }] } },
          'north_clinic',
        ),
      );
      await addTo(await w.d.recommendation({ recommendation: { items: [{ sku: 'D-1', qty: 1 }] } })); // store 1: not sent
      await running(consumer(), nothingPending);
      expect(receiver.received.map((call) => [call.path, call.verified])).to.deep.equal([['/docs', true]]);
      const body = receiver.received[0]!.body as { data: { recommendation: { recommendation_id: string } } };
      expect(body.data.recommendation.recommendation_id).to.equal(practice.recommendation_id);
    });

    it('events:subscribe --format should choose the envelope, and refuse an unknown one', async () => {
      const sub = await w.d.t.cli(
        'events:subscribe',
        'cli.items_added',
        '--parent',
        ITEMS_ADDED,
        '--destination',
        receiver.url('/cli'),
        '--format',
        'cloudevents',
      );
      expect(sub.code, sub.err.join('\n')).to.equal(0);
      expect((await list()).map((s) => [s.name, s.format])).to.deep.equal([['cli.items_added', 'cloudevents']]);
      expect((await w.d.t.cli('events:list')).out.join('\n')).to.include('as cloudevents');
      const bad = await w.d.t.cli('events:subscribe', ITEMS_ADDED, '--destination', receiver.url(), '--format', 'xml');
      expect(bad.code).to.equal(1);
      expect(bad.err.join('\n')).to.match(/format/);
      expect(await list()).to.have.length(1);
    });
  });
}
