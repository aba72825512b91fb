/**
 * Synchronous webhooks (issue 19) through the real application and real HTTP receivers: an
 * integrator subscribes a before-hook on Add Items with the admin token, and their receiver
 * vetoes, changes the arguments or the result, times out, fails, answers garbage, goes down and
 * comes back. Every request the receiver gets is checked with the `standardwebhooks` verifier.
 */
import { expect } from 'chai';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { captureLogger } from '../Integration/support.js';
import { ok, skus, type Recommendation } from '../Recommendation/support.js';
import { ADD_ITEMS, WebhookWorld } from './support.js';

const SECRET = `whsec_${Buffer.from('a test secret of thirty-two bytes!').toString('base64')}`;

describe('Webhooks: synchronous hooks on Add Items', function () {
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let r: Recommendation;
  const log = captureLogger();

  before(async () => {
    w = await WebhookWorld.start({ logger: log.logger });
    await w.d.products('W-1', 'W-2', 'W-3');
    receiver = await WebhookReceiver.start();
    receiver.secret = SECRET;
  });
  after(async () => {
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    r = await w.d.recommendation({ recommendation: { items: [{ sku: 'W-1', qty: 1 }] } });
    receiver.received.length = 0;
    receiver.answer = () => ({ json: { op: 'success' } });
  });
  afterEach(async () => w.clear());

  describe('subscribing', () => {
    it('should refuse a caller without a token (401) and answer a generated secret once', async () => {
      const anonymous = await w.d.request().post('/rest/V1/webhooks/subscribe').send({ webhook: {} });
      expect(anonymous.status).to.equal(401);
      const body = await w.subscribe({ url: receiver.url() });
      expect(body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const list = await w.d.request().get('/rest/V1/webhooks/list').set('Authorization', `Bearer ${w.adminToken}`);
      expect(list.status).to.equal(200);
      const listed = (list.body as Record<string, unknown>[]).find((hook) => hook.hook_name === 'h1')!;
      expect(listed).to.include({
        webhook_method: ADD_ITEMS,
        webhook_type: 'before',
        url: receiver.url(),
        source: 'api',
      });
      expect(listed).not.to.have.property('secret');
      // Stored encrypted, never in clear.
      const rows = (await w.d.t.app.knex('webhook_subscription').select('secret')) as { secret: string }[];
      expect(rows).to.have.length(1);
      expect(rows[0]!.secret).to.match(/^v1:/).and.not.include(String(body.secret).slice(6));
    });

    it('should not answer a secret the subscriber gave', async () => {
      const body = await w.subscribe({ url: receiver.url(), secret: SECRET });
      expect(body).not.to.have.property('secret');
    });

    it("should refuse a caller whose token lacks the ACL resource (Magento's 401)", async () => {
      const token = await w.d.t.integrationToken({
        allStores: true,
        resources: ['Dispensary_Recommendation::recommendation'],
      });
      const res = await w.subscribeRaw(
        { webhook_method: ADD_ITEMS, webhook_type: 'before', batch_name: 'b', hook_name: 'h', url: receiver.url() },
        token,
      );
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({
        message: "The consumer isn't authorized to access %resources.",
        parameters: { resources: 'Dispensary_Webhooks::webhooks_subscribe' },
      });
    });

    it('should refuse a plugin name no route reaches, and the login route (its arguments are credentials)', async () => {
      const unknown = await w.subscribeRaw({
        webhook_method: 'plugin.dispensary.recommendation.api.nothing.here',
        webhook_type: 'before',
        batch_name: 'b',
        hook_name: 'h',
        url: receiver.url(),
      });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.message).to.equal('No webhook is named "%name": see webhooks:list:all.');
      const login = await w.subscribeRaw({
        webhook_method: 'plugin.dispensary.integration.api.admin_token_service.create_admin_access_token',
        webhook_type: 'before',
        batch_name: 'b',
        hook_name: 'h',
        url: receiver.url(),
      });
      expect(login.status).to.equal(400);
      expect(login.body.message).to.equal('The webhook "%name" would receive credentials and cannot be subscribed.');
    });

    for (const [url, why] of [
      ['ftp://127.0.0.1/hook', 'http or https'],
      ['file:///etc/passwd', 'http or https'],
      ['http://169.254.169.254/latest/meta-data/', 'metadata'],
      ['http://[::ffff:169.254.169.254]/', 'metadata'],
    ] as const) {
      it(`should refuse ${url} (400, nothing stored)`, async () => {
        const res = await w.subscribeRaw({
          webhook_method: ADD_ITEMS,
          webhook_type: 'before',
          batch_name: 'b',
          hook_name: 'h',
          url,
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(String(res.body.message)).to.include(why);
        expect(await w.d.t.app.knex('webhook_subscription').count({ n: '*' }).first()).to.satisfy(
          (row: { n: number | string }) => Number(row.n) === 0,
        );
      });
    }
  });

  describe('before hooks', () => {
    it('should send the arguments by name, signed (Standard Webhooks), and go on when the answer is success', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(skus(res)).to.deep.equal(['W-1', 'W-2']);
      expect(receiver.received).to.have.length(1);
      const [call] = receiver.received;
      expect(call!.verified, 'signature verified by standardwebhooks').to.equal(true);
      expect(call!.headers['webhook-id']).to.match(/^msg_/);
      expect(call!.headers['webhook-signature']).to.match(/^v1,/);
      expect(call!.body).to.deep.equal({
        recommendationId: r.recommendation_id,
        recommendation: { items: [{ sku: 'W-2', qty: 2 }] },
      });
    });

    it('should fail the request with the hook message and save nothing when it answers exception', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      receiver.answer = () => ({ json: { op: 'exception', message: 'W-2 is not sold to this patient.' } });
      const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'W-2 is not sold to this patient.' });
      expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['W-1']);
    });

    it("should change an item's qty with a replace operation", async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      receiver.answer = () => ({ json: [{ op: 'replace', path: 'recommendation/items/0/qty', value: 7 }] });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(res.items.find((item) => item.sku === 'W-2')!.qty).to.equal(7);
      expect((await w.d.read(r.recommendation_id)).items.find((item) => item.sku === 'W-2')!.qty).to.equal(7);
    });

    it('should add and remove items with add and remove operations', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      receiver.answer = () => ({
        json: [
          { op: 'add', path: 'recommendation/items', value: { sku: 'W-3', qty: 3 } },
          { op: 'remove', path: 'recommendation/items/0' },
        ],
      });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(skus(res)).to.deep.equal(['W-1', 'W-3']);
    });

    it('should check changed arguments with the contract schemas (400, nothing saved)', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      receiver.answer = () => ({ json: { op: 'replace', path: 'recommendation/items/0/qty', value: -4 } });
      const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['W-1']);
    });

    it('should ignore an operation on a path outside the arguments', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      // A root that is not an argument (a `constructor/prototype` path, as this used before, is now a
      // failed hook: webhooksTrust.http.test.ts; with Adobe's required default it fails the request).
      receiver.answer = () => ({ json: { op: 'replace', path: 'elsewhere/qty', value: 1 } });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
    });

    it('should hold no database connection while a before hook waits: another write completes meanwhile', async () => {
      const other = await w.d.recommendation({ recommendation: { items: [{ sku: 'W-1', qty: 1 }] } });
      let otherStatus = 0;
      // While Add Items waits for its hook, the receiver makes another write request and answers only after it.
      // Were the hook inside a transaction (on SQLite: the one writer), that write would wait for the hook: a deadlock until the timeout.
      receiver.answer = async () => {
        otherStatus = (
          await w.d.update(other.recommendation_id, { recommendation: { items: [{ sku: 'W-1', qty: 5 }] } })
        ).status;
        return { json: { op: 'success' } };
      };
      await w.subscribe({
        url: receiver.url(),
        secret: SECRET,
        required: true,
        timeout: 3000,
        fallback_error_message: 'Timed out.',
      });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(otherStatus).to.equal(200);
    });

    it('should answer the fallback message when a required hook times out, and save nothing', async () => {
      await w.subscribe({
        url: receiver.url(),
        secret: SECRET,
        required: true,
        timeout: 300,
        fallback_error_message: 'The stock service is not answering.',
      });
      receiver.answer = () => ({ hang: true });
      const started = Date.now();
      const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'The stock service is not answering.' });
      expect(Date.now() - started).to.be.below(5000);
      expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['W-1']);
    });

    it('should let the request through when an optional hook times out', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET, required: false, timeout: 300 });
      receiver.answer = () => ({ hang: true });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(skus(res)).to.deep.equal(['W-1', 'W-2']);
    });

    for (const [what, answer] of [
      ['answers 500', { status: 500, raw: 'oops' }],
      ['answers garbage', { raw: '<html>not json</html>' }],
      ['answers an unknown operation', { json: { op: 'explode' } }],
      ['redirects', { status: 302, raw: '' }],
    ] as const) {
      it(`should fail a required hook that ${what} with its fallback message, and skip an optional one`, async () => {
        receiver.answer = () => answer;
        await w.subscribe({
          url: receiver.url(),
          secret: SECRET,
          required: true,
          fallback_error_message: 'Validation is unavailable.',
        });
        const refused = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
        expect(refused.status).to.equal(400);
        expect(refused.body).to.deep.equal({ message: 'Validation is unavailable.' });
        await w.clear();
        await w.subscribe({ url: receiver.url(), secret: SECRET, required: false });
        ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      });
    }

    it('should fail while the receiver is down and work again when it is back', async () => {
      const flaky = await WebhookReceiver.start();
      flaky.secret = SECRET;
      const port = flaky.port;
      await w.subscribe({ url: flaky.url(), secret: SECRET, required: true, fallback_error_message: 'Down.' });
      await flaky.stop();
      const down = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(down.status).to.equal(400);
      expect(down.body).to.deep.equal({ message: 'Down.' });
      const back = await WebhookReceiver.start(port);
      back.secret = SECRET;
      try {
        ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
        expect(back.received).to.have.length(1);
        expect(back.received[0]!.verified).to.equal(true);
      } finally {
        await back.stop();
      }
    });

    it('should call a hook only when its rules hold, and send only its fields', async () => {
      await w.subscribe({
        url: receiver.url(),
        secret: SECRET,
        rules: [{ field: 'recommendation.items.0.sku', operator: 'regex', value: '/^w-3$/i' }],
        fields: [
          { name: 'sku', source: 'recommendation.items.0.sku' },
          { name: 'id', source: 'recommendationId' },
        ],
      });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(receiver.received).to.have.length(0);
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-3', qty: 2 }] } }));
      expect(receiver.received.map((call) => call.body)).to.deep.equal([{ sku: 'W-3', id: r.recommendation_id }]);
    });

    it('should keep an answer for ttl seconds for an identical payload', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET, ttl: 60 });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(receiver.received).to.have.length(1);
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-3', qty: 2 }] } }));
      expect(receiver.received).to.have.length(2);
    });

    it("should run batches one after another in batch_order, each seeing the previous batch's changes, and a batch's hooks in parallel (Adobe)", async () => {
      const order: string[] = [];
      const bodies: Record<string, { recommendation: { items: { qty: number; note?: string }[] } }> = {};
      let secondArrived!: () => void;
      const second = new Promise<void>((resolve) => (secondArrived = resolve));
      receiver.answer = async (call) => {
        order.push(call.path);
        bodies[call.path] = call.body as (typeof bodies)[string];
        if (call.path === '/first') {
          // Answers only once /second has been called: the hooks of one batch run at the same time.
          await second;
          return { json: { op: 'replace', path: 'recommendation/items/0/qty', value: 5 } };
        }
        if (call.path === '/second') {
          secondArrived();
          // The same path as /first's change: the higher priority's (/first, 20) is kept.
          return { json: { op: 'replace', path: 'recommendation/items/0/qty', value: 9 } };
        }
        const qty = bodies['/third']!.recommendation.items[0]!.qty;
        return { json: { op: 'replace', path: 'recommendation/items/0/note', value: `third saw qty ${qty}` } };
      };
      // Named against their order: batch_order decides, not the name.
      await w.subscribe({
        url: receiver.url('/third'),
        secret: SECRET,
        batch_name: 'a_late',
        batch_order: 20,
        hook_name: 'third',
      });
      await w.subscribe({
        url: receiver.url('/second'),
        secret: SECRET,
        batch_name: 'z_early',
        batch_order: 10,
        hook_name: 'second',
        priority: 10,
      });
      await w.subscribe({
        url: receiver.url('/first'),
        secret: SECRET,
        batch_name: 'z_early',
        batch_order: 10,
        hook_name: 'first',
        priority: 20,
      });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(order.slice(0, 2).sort()).to.deep.equal(['/first', '/second']);
      expect(order[2]).to.equal('/third');
      // Both hooks of the first batch saw the payload as sent; the next batch saw the first batch's change.
      expect(bodies['/second']!.recommendation.items[0]!.qty).to.equal(2);
      expect(res.items.find((item) => item.sku === 'W-2')).to.include({ qty: 5, note: 'third saw qty 5' });
    });

    it('should not call a later batch once a required hook of an earlier batch failed', async () => {
      receiver.answer = (call) => (call.path === '/early' ? { status: 503, raw: '' } : { json: { op: 'success' } });
      await w.subscribe({
        url: receiver.url('/early'),
        secret: SECRET,
        batch_name: 'early',
        batch_order: 1,
        hook_name: 'h',
        fallback_error_message: 'Early failed.',
      });
      await w.subscribe({
        url: receiver.url('/late'),
        secret: SECRET,
        batch_name: 'late',
        batch_order: 2,
        hook_name: 'h',
      });
      const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Early failed.' });
      expect(receiver.received.map((call) => call.path)).to.deep.equal(['/early']);
    });

    it('should log each call (hook, duration, outcome) without its body, and count it in /metrics', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      log.lines.length = 0;
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      const line = log.lines.find((l) => l.msg === 'webhook call')!;
      expect(line).to.include({ hook: `${ADD_ITEMS}:before:b1:h1`, outcome: 'success' });
      expect(line.durationMs).to.be.a('number');
      const all = JSON.stringify(log.lines);
      expect(all).not.to.include('W-2');
      expect(all).not.to.include(SECRET.slice(6));
      const metrics = await w.d.request().get('/metrics');
      expect(metrics.text).to.match(
        new RegExp(`webhook_calls_total\\{hook="${ADD_ITEMS}:before:b1:h1",outcome="success"\\} \\d+`),
      );
      expect(metrics.text).to.include('webhook_call_duration_seconds_bucket');
    });
  });

  describe('after hooks and observer hooks', () => {
    it('should let an after hook change the result the client receives', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET, webhook_type: 'after' });
      receiver.answer = () => ({ json: { op: 'replace', path: 'result/note', value: 'checked by the pharmacy' } });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } }));
      expect(res.note).to.equal('checked by the pharmacy');
      expect(
        (receiver.received[0]!.body as { result: Recommendation }).result.items.map((item) => item.sku),
      ).to.deep.equal(['W-1', 'W-2']);
    });

    it('should roll the whole request back when an after hook vetoes', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET, webhook_type: 'after' });
      receiver.answer = () => ({ json: { op: 'exception', message: 'Too late.' } });
      const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(res.status).to.equal(400);
      expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['W-1']);
    });

    it('should run observer.<event> hooks on the event, and roll back on their veto', async () => {
      await w.subscribe({
        url: receiver.url(),
        secret: SECRET,
        webhook_method: 'observer.dispensary_recommendation_items_add_after',
      });
      receiver.answer = () => ({ json: { op: 'exception', message: 'Observed and refused.' } });
      const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'W-2', qty: 2 }] } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Observed and refused.' });
      const sent = receiver.received[0]!.body as { eventName: string; data: { added: { sku: string }[] } };
      expect(sent.eventName).to.equal('dispensary_recommendation_items_add_after');
      expect(sent.data.added.map((item) => item.sku)).to.deep.equal(['W-2']);
      expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['W-1']);
    });
  });

  describe('command line', () => {
    it('webhooks:list:all should name Add Items and the observed events; webhooks:info should print the payload', async () => {
      const all = await w.d.t.cli('webhooks:list:all');
      expect(all.code).to.equal(0);
      expect(all.out).to.include(ADD_ITEMS);
      expect(all.out).to.include('observer.dispensary_patient_save_after');
      const info = await w.d.t.cli('webhooks:info', ADD_ITEMS);
      expect(info.code, info.err.join('\n')).to.equal(0);
      expect(JSON.parse(info.out.join('\n'))).to.deep.equal({ recommendationId: 'string', recommendation: 'object' });
      const after = await w.d.t.cli('webhooks:info', ADD_ITEMS, '--webhook-type', 'after');
      expect(JSON.parse(after.out.join('\n'))).to.have.property(
        'result',
        'Dispensary\\Recommendation\\Api\\Data\\RecommendationInterface',
      );
    });

    it('webhooks:list should show the subscriptions without their secrets', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      const list = await w.d.t.cli('webhooks:list');
      expect(list.code, list.err.join('\n')).to.equal(0);
      expect(list.out.join('\n')).to.include(`${ADD_ITEMS} before h1 -> ${receiver.url()}`);
      expect(list.out.join('\n')).not.to.include(SECRET.slice(6));
    });
  });
});
