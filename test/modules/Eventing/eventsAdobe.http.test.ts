/**
 * Adobe I/O eventing's semantics (issue 26, point 3) and the delivery routes for integrators
 * (point 5), through the real application, the db queue and a real receiver: `*` and
 * `items[].sku` fields, `PUT /V1/eventing/eventSubscribe/:name` merging fields and rules, Adobe's
 * `events:subscribe` spellings, and `GET .../deliveries`, `GET /V1/eventing/deadLetters`, the
 * re-drives, with their own ACL resources, sharing one service with events:dead-letter:*.
 */
import { expect } from 'chai';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { ok, type Recommendation } from '../Recommendation/support.js';
import { WebhookWorld } from '../Webhooks/support.js';
import { ITEMS_ADDED, testDeliveryConsumer } from './support.js';

const SECRET = `whsec_${Buffer.from('adobe eventing secret, 32 bytes!').toString('base64')}`;

describe("Eventing: Adobe's semantics and the delivery routes (db queue)", function () {
  this.timeout(60_000);
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let r: Recommendation;

  const outboxRows = () =>
    w.d.t.app.knex('event_outbox').orderBy('outbox_id') as Promise<
      { outbox_id: number; status: string; attempts: number; event_uuid: string; subscription_name: string }[]
    >;
  const consumer = (maxAttempts = 2) =>
    // maxAttempts attempts, 20 ms apart.
    testDeliveryConsumer(w.d.t, { schedule: Array.from({ length: maxAttempts - 1 }, () => 20) });
  /** Runs a consumer until no event is pending any more (bounded), then stops it. */
  const drain = async (maxAttempts = 2) => {
    const stop = new AbortController();
    const running = consumer(maxAttempts).run({ signal: stop.signal });
    try {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (await outboxRows()).some((row) => row.status === 'pending'))
        await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      stop.abort();
      await running;
    }
  };
  const as = (token: string) => ({
    get: (url: string) => w.d.request().get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body?: object) => w.d.request().post(url).set('Authorization', `Bearer ${token}`).send(body),
    put: (url: string, body?: object) => w.d.request().put(url).set('Authorization', `Bearer ${token}`).send(body),
  });
  const admin = () => as(w.adminToken);
  const subscribe = async (event: Record<string, unknown>) => {
    const res = await admin().post('/rest/V1/eventing/eventSubscribe', { event: { secret: SECRET, ...event } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const addTwo = () =>
    w.d.add(r.recommendation_id, {
      recommendation: {
        items: [
          { sku: 'A-2', qty: 2 },
          { sku: 'A-3', qty: 3 },
        ],
      },
    });

  before(async () => {
    w = await WebhookWorld.start();
    await w.d.products('A-1', 'A-2', 'A-3');
    receiver = await WebhookReceiver.start();
    receiver.secret = SECRET;
  });
  after(async () => {
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    await w.d.t.app.knex('event_outbox').delete();
    await w.d.t.app.knex('event_subscription').delete();
    r = await w.d.recommendation({ recommendation: { items: [{ sku: 'A-1', qty: 1 }] } });
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 204, raw: '' });
  });

  describe('fields, update and the command line', () => {
    it('should send the whole event for the field `*`, and `added[].sku` as that field of every element', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/all'), fields: [{ name: '*' }] });
      await subscribe({
        name: `${ITEMS_ADDED}.skus`,
        parent: ITEMS_ADDED,
        destination: receiver.url('/skus'),
        fields: [{ name: 'added[].sku' }, { name: 'recommendation.recommendation_id' }],
      });
      const added = ok(await addTwo());
      await drain();
      const bodyOf = (path: string) =>
        (receiver.received.find((call) => call.path === path)!.body as { data: Record<string, unknown> }).data;
      expect(bodyOf('/all')).to.include.keys('recommendation', 'added');
      expect((bodyOf('/all').added as unknown[]).length).to.equal(2);
      expect(bodyOf('/skus')).to.deep.equal({
        added: [{ sku: 'A-2' }, { sku: 'A-3' }],
        recommendation: { recommendation_id: added.recommendation_id },
      });
    });

    it('PUT /V1/eventing/eventSubscribe/:name should merge the fields and rules given into the subscription', async () => {
      await subscribe({
        name: ITEMS_ADDED,
        destination: receiver.url('/events'),
        fields: [{ name: 'recommendation.recommendation_id' }],
        rules: [{ field: 'recommendation.store_id', operator: 'notEmpty' }],
      });
      const res = await admin().put(`/rest/V1/eventing/eventSubscribe/${ITEMS_ADDED}`, {
        event: { name: ITEMS_ADDED, fields: [{ name: 'added[].sku' }], priority: true },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const list = await admin().get('/rest/V1/eventing/getEventSubscriptions');
      expect(list.body).to.deep.equal([
        {
          name: ITEMS_ADDED,
          parent: null,
          fields: [{ name: 'recommendation.recommendation_id' }, { name: 'added[].sku' }],
          rules: [{ field: 'recommendation.store_id', operator: 'notEmpty' }],
          destination: receiver.url('/events'),
          priority: true,
          format: 'standardwebhooks',
          source: 'api',
          status: 'enabled',
          status_reason: null,
        },
      ]);
      // The secret was kept: the next delivery still verifies with it.
      ok(await addTwo());
      await drain();
      expect(receiver.received.map((call) => call.verified)).to.deep.equal([true]);
      // Adobe's body may carry "force" beside the event.
      const forced = await admin().post('/rest/V1/eventing/eventSubscribe', {
        event: { name: `${ITEMS_ADDED}.forced`, parent: ITEMS_ADDED, destination: receiver.url('/forced') },
        force: true,
      });
      expect(forced.status, JSON.stringify(forced.body)).to.equal(200);
      const missing = await admin().put('/rest/V1/eventing/eventSubscribe/observer.nobody_subscribed', {
        event: { priority: true },
      });
      expect(missing.status).to.equal(404);
    });

    it('PUT /V1/eventing/eventSubscribe/:name should hold a rule value to the bound of a subscription (4096 characters)', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events') });
      const update = (value: string) =>
        admin().put(`/rest/V1/eventing/eventSubscribe/${ITEMS_ADDED}`, {
          event: { rules: [{ field: 'recommendation.store_id', operator: 'equal', value }] },
        });
      const tooLong = await update('1'.repeat(4097));
      expect(tooLong.status, JSON.stringify(tooLong.body)).to.equal(400);
      const fits = await update('1'.repeat(4096));
      expect(fits.status, JSON.stringify(fits.body)).to.equal(200);
    });

    it("events:subscribe should take Adobe's spellings: --fields (repeated, or Adobe's JSON) and --rules='field|operator|value'", async () => {
      const sub = await w.d.t.cli(
        'events:subscribe',
        ITEMS_ADDED,
        '-d',
        receiver.url('/cli'),
        '--fields=added[].sku',
        '--fields={"name":"id","source":"recommendation.recommendation_id"}',
        '--rules=recommendation.store_id|in|1,2',
        '--rules=added|notEmpty|',
        '--force',
      );
      expect(sub.code, sub.err.join('\n')).to.equal(0);
      // Read from the table: this process's view of subscriptions another process made may lag by a second.
      const [row] = (await w.d.t.app.knex('event_subscription').select('definition')) as { definition: string }[];
      expect(JSON.parse(row!.definition)).to.deep.include({
        fields: [{ name: 'added[].sku' }, { name: 'id', source: 'recommendation.recommendation_id' }],
        rules: [
          { field: 'recommendation.store_id', operator: 'in', value: '1,2' },
          { field: 'added', operator: 'notEmpty', value: '' },
        ],
      });
      const bad = await w.d.t.cli('events:subscribe', ITEMS_ADDED, '-d', receiver.url('/cli'), '--rules=onlyafield');
      expect(bad.code).to.equal(1);
      expect(bad.err.join('\n')).to.include('A rule is field|operator|value, not "onlyafield"');
    });
  });

  describe('deliveries and dead letters for integrators', () => {
    it("should list a subscription's deliveries with their attempts and last answer, never the payload or secret", async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events') });
      let calls = 0;
      receiver.answer = () => (++calls === 1 ? { status: 503, raw: 'busy' } : { status: 204, raw: '' });
      ok(await addTwo());
      await drain(3);
      const res = await admin().get(
        `/rest/V1/eventing/subscriptions/${ITEMS_ADDED}/deliveries?searchCriteria[pageSize]=10`,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.total_count).to.equal(1);
      const [delivery] = res.body.items as Record<string, unknown>[];
      expect(delivery).to.include({
        event_id: receiver.received[0]!.headers['webhook-id'],
        subscription_name: ITEMS_ADDED,
        status: 'delivered',
        attempts: 2,
        last_error: null,
        next_attempt_at: null,
      });
      expect(delivery!.created_at).to.match(/^\d{4}-\d\d-\d\dT/);
      expect(delivery!.delivered_at).to.match(/^\d{4}-\d\d-\d\dT/);
      expect(JSON.stringify(res.body)).not.to.include('A-2').and.not.to.include(SECRET.slice(6));
    });

    it('should list dead letters (filtered by searchCriteria) and re-drive one, then all of a subscription', async () => {
      await subscribe({ name: ITEMS_ADDED, destination: receiver.url('/events') });
      await subscribe({ name: `${ITEMS_ADDED}.copy`, parent: ITEMS_ADDED, destination: receiver.url('/copy') });
      receiver.answer = () => ({ status: 500, raw: 'down' });
      ok(await addTwo());
      ok(await addTwo());
      await drain(2);
      expect((await outboxRows()).map((row) => row.status)).to.deep.equal(['dead', 'dead', 'dead', 'dead']);
      const filter =
        'searchCriteria[filter_groups][0][filters][0][field]=subscription_name' +
        `&searchCriteria[filter_groups][0][filters][0][value]=${ITEMS_ADDED}` +
        '&searchCriteria[sort_orders][0][field]=delivery_id&searchCriteria[sort_orders][0][direction]=DESC';
      const dead = await admin().get(`/rest/V1/eventing/deadLetters?${filter}`);
      expect(dead.status, JSON.stringify(dead.body)).to.equal(200);
      expect(dead.body.total_count).to.equal(2);
      const items = dead.body.items as { delivery_id: number; status: string; attempts: number; last_error: string }[];
      expect(items.map((item) => [item.status, item.attempts, item.last_error])).to.deep.equal([
        ['dead', 2, 'http 500'],
        ['dead', 2, 'http 500'],
      ]);
      expect(items[0]!.delivery_id).to.be.above(items[1]!.delivery_id);

      receiver.answer = () => ({ status: 204, raw: '' });
      receiver.received.length = 0;
      const one = await admin().post(`/rest/V1/eventing/deadLetters/${items[1]!.delivery_id}/retry`);
      expect([one.status, one.body]).to.deep.equal([200, true]);
      await drain();
      expect(receiver.received.map((call) => call.path)).to.deep.equal(['/events']);
      const again = await admin().post(`/rest/V1/eventing/deadLetters/${items[1]!.delivery_id}/retry`);
      expect(again.status).to.equal(404);

      const all = await admin().post(`/rest/V1/eventing/subscriptions/${ITEMS_ADDED}.copy/deadLetters/retry`);
      expect([all.status, all.body]).to.deep.equal([200, 2]);
      await drain();
      expect((await outboxRows()).map((row) => [row.subscription_name, row.status])).to.deep.equal([
        [ITEMS_ADDED, 'delivered'],
        [`${ITEMS_ADDED}.copy`, 'delivered'],
        [ITEMS_ADDED, 'dead'],
        [`${ITEMS_ADDED}.copy`, 'delivered'],
      ]);
      // The command line reads the same service.
      const listed = await w.d.t.cli('events:dead-letter:list');
      expect(listed.out.filter((line) => line !== '')).to.have.length(1);
      expect(listed.out[0]).to.include(`${ITEMS_ADDED}\t2 attempt(s)\thttp 500`);
    });

    it('should refuse a token without the resources: deliveries/dead letters and re-drive are their own', async () => {
      const viewer = await w.d.t.integrationToken({
        allStores: true,
        resources: ['Dispensary_Eventing::eventing_deliveries'],
      });
      expect((await as(viewer).get('/rest/V1/eventing/deadLetters?searchCriteria=')).status).to.equal(200);
      const redrive = await as(viewer).post(`/rest/V1/eventing/subscriptions/${ITEMS_ADDED}/deadLetters/retry`);
      expect(redrive.status).to.equal(401);
      expect(redrive.body.parameters).to.deep.equal({ resources: 'Dispensary_Eventing::eventing_redrive' });
      const subscriber = await w.d.t.integrationToken({
        allStores: true,
        resources: ['Dispensary_Eventing::eventing_subscribe'],
      });
      const list = await as(subscriber).get(
        `/rest/V1/eventing/subscriptions/${ITEMS_ADDED}/deliveries?searchCriteria=`,
      );
      expect(list.status).to.equal(401);
      expect(list.body.parameters).to.deep.equal({ resources: 'Dispensary_Eventing::eventing_deliveries' });
      expect((await w.d.request().get('/rest/V1/eventing/deadLetters?searchCriteria=')).status).to.equal(401);
    });
  });
});
