/**
 * Issue 25: a hook receiver and a subscription cannot reach beyond the payload's own data. A
 * receiver answering operations on `__proto__`, `constructor`, `prototype` or an inherited name
 * has failed (required: the fallback 400, optional: logged and skipped), stores nothing and
 * pollutes nothing; `fields`, `source` and rule paths naming them, regexes RE2 does not take,
 * header names and values node's http would refuse and a `ttl` beyond an hour are refused at
 * subscription (400 naming the field), for webhooks and events, on REST and the command line;
 * the `ttl` cache keeps answers under a hash of the payload, within a bound in bytes.
 */
import { expect } from 'chai';
import type { HookRunner } from '../../../modules/Dispensary/Webhooks/Model/HookRunner.js';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { ITEMS_ADDED } from '../Eventing/support.js';
import { captureLogger } from '../Integration/support.js';
import { ok, skus, type Recommendation } from '../Recommendation/support.js';
import { HOSTILE_ANSWERS } from './hostileAnswers.js';
import { WebhookWorld } from './support.js';
import type { InjectRequest } from '../../support/inject.js';

const SECRET = `whsec_${Buffer.from('trust boundary secret, 32 bytes!').toString('base64')}`;
const FALLBACK = 'The check is unavailable.';

const ORIGINAL_HAS_OWN = Object.prototype.hasOwnProperty;
const ORIGINAL_TO_STRING = Object.prototype.toString;

/** Undoes what a hostile answer did to this process's prototypes (today's main lets it), so the other tests run. */
function restorePrototypes(): void {
  for (const target of [Object.prototype, Array.prototype] as Record<string, unknown>[]) {
    delete target.x;
    delete target.note;
  }
  for (const [name, original] of [
    ['hasOwnProperty', ORIGINAL_HAS_OWN],
    ['toString', ORIGINAL_TO_STRING],
  ] as const) {
    Object.defineProperty(Object.prototype, name, { value: original, writable: true, configurable: true });
  }
}

function expectNothingPolluted(): void {
  expect(({} as Record<string, unknown>).x, 'Object.prototype.x').to.equal(undefined);
  expect(({} as Record<string, unknown>).note, 'Object.prototype.note').to.equal(undefined);
  expect(([] as unknown as Record<string, unknown>).x, 'Array.prototype.x').to.equal(undefined);
  expect(Object.prototype.hasOwnProperty, 'Object.prototype.hasOwnProperty').to.equal(ORIGINAL_HAS_OWN);
  expect(Object.prototype.toString, 'Object.prototype.toString').to.equal(ORIGINAL_TO_STRING);
}

describe('Webhooks and events: a receiver and a subscriber stay within the data (issue 25)', function () {
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let r: Recommendation;
  const log = captureLogger();
  const webhookRows = async () =>
    Number(((await w.d.t.app.knex('webhook_subscription').count({ n: '*' }).first()) as { n: number | string }).n);
  const eventRows = async () =>
    Number(((await w.d.t.app.knex('event_subscription').count({ n: '*' }).first()) as { n: number | string }).n);

  before(async () => {
    w = await WebhookWorld.start({ logger: log.logger });
    await w.d.products('T-1', 'T-2', 'T-3');
    receiver = await WebhookReceiver.start();
    receiver.secret = SECRET;
  });
  after(async () => {
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    r = await w.d.recommendation({ recommendation: { items: [{ sku: 'T-1', qty: 1 }] } });
    receiver.received.length = 0;
    receiver.answer = () => ({ json: { op: 'success' } });
  });
  afterEach(async () => {
    restorePrototypes();
    await w.clear();
  });

  describe('a receiver answering a path outside the data', () => {
    for (const [what, answer] of HOSTILE_ANSWERS) {
      it(`${what}: a required hook fails with its fallback message, nothing stored, nothing polluted`, async () => {
        await w.subscribe({ url: receiver.url(), secret: SECRET, required: true, fallback_error_message: FALLBACK });
        receiver.answer = () => answer;
        const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2 }] } });
        expectNothingPolluted();
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.equal({ message: FALLBACK });
        expect(receiver.received).to.have.length(1);
        const stored = await w.d.read(r.recommendation_id);
        expect(skus(stored)).to.deep.equal(['T-1']);
        expect(stored.note).to.equal(null);
      });

      it(`${what}: an optional hook is logged and skipped, the request stores only its own data`, async () => {
        await w.subscribe({ url: receiver.url(), secret: SECRET, required: false });
        receiver.answer = () => answer;
        log.lines.length = 0;
        const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2 }] } });
        expectNothingPolluted();
        const added = ok(res);
        expect(skus(added)).to.deep.equal(['T-1', 'T-2']);
        expect(added.note).to.equal(null);
        expect(added.items.map((item) => item.note)).to.deep.equal([null, null]);
        expect(log.lines.find((line) => line.msg === 'webhook call failed')).to.include({ outcome: 'invalid_answer' });
        // The hook stays subscribed and later requests are answered the same way.
        ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-3', qty: 1 }] } }));
        expectNothingPolluted();
      });
    }

    it('an array position that is not an index changes nothing (remove recommendation/items/abc once removed item 0)', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      receiver.answer = () => ({ json: [{ op: 'remove', path: 'recommendation/items/abc' }] });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2 }] } }));
      expect(skus(res)).to.deep.equal(['T-1', 'T-2']);
    });

    it("a hook's fields never write into the payload they copy from", async () => {
      await w.subscribe({
        url: receiver.url(),
        secret: SECRET,
        fields: [
          { name: 'r', source: 'recommendation' },
          { name: 'r.injected', source: 'recommendationId' },
        ],
      });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2 }] } }));
      expect(skus(res)).to.deep.equal(['T-1', 'T-2']);
      expect(receiver.received[0]!.body).to.deep.equal({ r: { items: [{ sku: 'T-2', qty: 2 }] } });
    });

    it("a hook's items[] fields never write into the payload they copy from either", async () => {
      await w.subscribe({
        url: receiver.url(),
        secret: SECRET,
        fields: [
          { name: 'r', source: 'recommendation' },
          { name: 'r.items[].injected', source: 'recommendation.items[].sku' },
          { name: 'skus[].sku', source: 'recommendation.items[].sku' },
        ],
      });
      const res = ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2 }] } }));
      expect(skus(res)).to.deep.equal(['T-1', 'T-2']);
      expect(receiver.received[0]!.body).to.deep.equal({
        r: { items: [{ sku: 'T-2', qty: 2 }] },
        skus: [{ sku: 'T-2' }],
      });
    });
  });

  describe('subscribing', () => {
    const refusals: [string, Record<string, unknown>, string, string][] = [
      ['a field named __proto__.x', { fields: [{ name: '__proto__.x' }] }, 'fields[0].name', 'own properties'],
      [
        'a field named constructor.prototype.x',
        { fields: [{ name: 'constructor.prototype.x' }] },
        'fields[0].name',
        'own properties',
      ],
      [
        'a field source through __proto__',
        { fields: [{ name: 'x', source: 'recommendation.__proto__' }] },
        'fields[0].source',
        'own properties',
      ],
      [
        "Adobe's items[] form through __proto__",
        { fields: [{ name: 'items[].sku', source: 'recommendation.__proto__[].sku' }] },
        'fields[0].source',
        'own properties',
      ],
      [
        "Adobe's items[] form naming an inherited property of the elements",
        { fields: [{ name: 'items[].constructor' }] },
        'fields[0].name',
        'own properties',
      ],
      [
        'a rule on recommendation.constructor',
        { rules: [{ field: 'recommendation.constructor', operator: 'notEmpty' }] },
        'rules[0].field',
        'own properties',
      ],
      [
        'an unknown operator',
        { rules: [{ field: 'a', operator: 'matches', value: 'x' }] },
        'rules[0].operator',
        'equal',
      ],
      ['the regex /(/', { rules: [{ field: 'a', operator: 'regex', value: '/(/' }] }, 'rules[0].value', 'missing'],
      [
        'the regex /[z-a]/',
        { rules: [{ field: 'a', operator: 'regex', value: '/[z-a]/' }] },
        'rules[0].value',
        'range',
      ],
      ['the regex (?<', { rules: [{ field: 'a', operator: 'regex', value: '(?<' }] }, 'rules[0].value', 'RE2'],
      [
        'a backreference',
        { rules: [{ field: 'a', operator: 'regex', value: '/(a)\\1/' }] },
        'rules[0].value',
        'no backreferences',
      ],
      [
        'a lookahead',
        { rules: [{ field: 'a', operator: 'regex', value: '/a(?=b)/' }] },
        'rules[0].value',
        'lookaround',
      ],
      [
        'an unknown regex flag',
        { rules: [{ field: 'a', operator: 'regex', value: '/a/x' }] },
        'rules[0].value',
        'flag',
      ],
    ];
    const headerRefusals: [string, Record<string, unknown>, string][] = [
      ['a header value with CR LF', { headers: [{ name: 'x-key', value: 'a\r\nx-injected: 1' }] }, 'headers[0].value'],
      ['a header value with LF', { headers: [{ name: 'x-key', value: 'a\nb' }] }, 'headers[0].value'],
      ['a header value beyond Latin-1', { headers: [{ name: 'x-key', value: '10 €' }] }, 'headers[0].value'],
      ['a header value with NUL', { headers: [{ name: 'x-key', value: 'a\u0000b' }] }, 'headers[0].value'],
      ['a header the service sets', { headers: [{ name: 'Content-Length', value: '1' }] }, 'headers[0].name'],
      ['the signature header', { headers: [{ name: 'webhook-signature', value: 'v1,x' }] }, 'headers[0].name'],
      [
        "Adobe's request id header (the service sets it)",
        { headers: [{ name: 'x-adobe-commerce-request-id', value: 'x' }] },
        'headers[0].name',
      ],
    ];

    for (const [what, settings, field, reason] of refusals) {
      it(`should refuse ${what} for a webhook and an event (400 naming the field, nothing stored)`, async () => {
        const hook = await w.subscribeRaw({
          webhook_method: 'plugin.dispensary.recommendation.api.recommendation_item_management.add_items',
          webhook_type: 'before',
          batch_name: 'b',
          hook_name: 'h',
          url: receiver.url(),
          ...settings,
        });
        expect(hook.status, JSON.stringify(hook.body)).to.equal(400);
        expect(hook.body.parameters).to.include({ fieldName: `webhook.${field}` });
        expect(String(hook.body.parameters.reason)).to.include(reason);
        expect(await webhookRows()).to.equal(0);
        if ('headers' in settings) return;
        const event = await w.d
          .request()
          .post('/rest/V1/eventing/eventSubscribe')
          .set('Authorization', `Bearer ${w.adminToken}`)
          .send({ event: { name: ITEMS_ADDED, destination: receiver.url('/events'), ...settings } });
        expect(event.status, JSON.stringify(event.body)).to.equal(400);
        expect(event.body.parameters).to.include({ fieldName: `event.${field}` });
        expect(await eventRows()).to.equal(0);
      });
    }

    for (const [what, settings, field] of headerRefusals) {
      it(`should refuse ${what} (400 naming the field, nothing stored)`, async () => {
        const res = await w.subscribeRaw({
          webhook_method: 'plugin.dispensary.recommendation.api.recommendation_item_management.add_items',
          webhook_type: 'before',
          batch_name: 'b',
          hook_name: 'h',
          url: receiver.url(),
          ...settings,
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.parameters).to.include({ fieldName: `webhook.${field}` });
        expect(await webhookRows()).to.equal(0);
      });
    }

    it('events:subscribe should refuse a field through the prototype and a regex RE2 does not take', async () => {
      const field = await w.d.t.cli(
        'events:subscribe',
        ITEMS_ADDED,
        '--destination',
        receiver.url('/events'),
        '--field',
        'constructor.prototype.x',
      );
      expect(field.code).to.not.equal(0);
      expect(field.err.join('\n')).to.include('event.fields[0].name');
      const rule = await w.d.t.cli(
        'events:subscribe',
        ITEMS_ADDED,
        '--destination',
        receiver.url('/events'),
        '--rule',
        'recommendation.items.0.sku:regex:/(/',
      );
      expect(rule.code).to.not.equal(0);
      expect(rule.err.join('\n')).to.include('event.rules[0].value');
      expect(await eventRows()).to.equal(0);
    });

    it("PUT /V1/eventing/eventSubscribe/:name (Adobe's update) should refuse what subscribing refuses, changing nothing", async () => {
      const admin = (req: InjectRequest) => req.set('Authorization', `Bearer ${w.adminToken}`);
      const created = await admin(w.d.request().post('/rest/V1/eventing/eventSubscribe')).send({
        event: { name: ITEMS_ADDED, destination: receiver.url('/events'), fields: [{ name: 'added' }] },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      for (const [event, field] of [
        [{ fields: [{ name: 'added[].__proto__' }] }, 'event.fields[1].name'],
        [{ rules: [{ field: 'added', operator: 'regex', value: '/(a)\\1/' }] }, 'event.rules[0].value'],
      ] as const) {
        const res = await admin(w.d.request().put(`/rest/V1/eventing/eventSubscribe/${ITEMS_ADDED}`)).send({
          event,
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.parameters).to.include({ fieldName: field });
      }
      const list = await admin(w.d.request().get('/rest/V1/eventing/getEventSubscriptions'));
      expect(list.body.map((e: { fields: unknown; rules: unknown }) => [e.fields, e.rules])).to.deep.equal([
        [[{ name: 'added' }], []],
      ]);
    });

    it('should refuse a ttl beyond an hour (1e12 and 3601) and take 3600', async () => {
      for (const ttl of [1e12, 3601]) {
        const res = await w.subscribeRaw({
          webhook_method: 'plugin.dispensary.recommendation.api.recommendation_item_management.add_items',
          webhook_type: 'before',
          batch_name: 'b',
          hook_name: 'h',
          url: receiver.url(),
          ttl,
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(JSON.stringify(res.body)).to.include('ttl');
      }
      expect(await webhookRows()).to.equal(0);
      await w.subscribe({ url: receiver.url(), secret: SECRET, ttl: 3600 });
    });
  });

  describe('the ttl cache', () => {
    it('should keep an answer under a SHA-256 of what was sent, never the payload', async () => {
      const runner = w.d.t.app.objectManager.get<HookRunner>('Dispensary\\Webhooks\\Model\\HookRunner');
      await w.subscribe({ url: receiver.url(), secret: SECRET, ttl: 60 });
      const note = `a-distinctive-note-${'n'.repeat(200)}`;
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2, note }] } }));
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'T-2', qty: 2, note }] } }));
      expect(receiver.received).to.have.length(1);
      const keys = runner.cache.keys();
      expect(keys.length).to.be.at.least(1);
      for (const key of keys) expect(key).to.match(/^[0-9a-f]{64}$/);
      expect(runner.cache.bytes).to.be.below(runner.cache.maxBytes + 1);
    });
  });
});
