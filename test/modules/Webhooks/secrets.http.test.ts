/**
 * Issue 25, point 3: signing secrets (and the credentials integrators put in hook `headers`)
 * leave the service once, in the subscription's answer, and never again: not to a hook on the
 * subscription methods themselves (they cannot be hooked, from REST or webhooks.xml, and a row
 * stored before that rule never runs), not to the queue or a bulk's status (the subscribe routes
 * have no async or bulk form), not to a listing (header values masked, REST and CLI), not to logs.
 * Stored secrets are encrypted.
 */
import { expect } from 'chai';
import { loadModules } from '../../../app/framework/module/ModuleLoader.js';
import { readWebhooksXml } from '../../../modules/Dispensary/Webhooks/Model/WebhooksXml.js';
import type { HookRegistry } from '../../../modules/Dispensary/Webhooks/Model/HookRegistry.js';
import type { SubscriptionRepository } from '../../../modules/Dispensary/Webhooks/Model/SubscriptionRepository.js';
import type { WebhookData } from '../../../modules/Dispensary/Webhooks/Api/WebhookManagementInterface.js';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { configXml, expectConfigError, ModuleTree } from '../../framework/support/moduleTree.js';
import { captureLogger } from '../Integration/support.js';
import { ITEMS_ADDED } from '../Eventing/support.js';
import { ADD_ITEMS, WebhookWorld } from './support.js';
import type { InjectRequest } from '../../support/inject.js';

const WEBHOOK_SUBSCRIBE = 'plugin.dispensary.webhooks.api.webhook_management.subscribe';
const HOOK_METHODS = [
  WEBHOOK_SUBSCRIBE,
  'plugin.dispensary.webhooks.api.webhook_management.unsubscribe',
  'plugin.dispensary.webhooks.api.webhook_management.get_list',
  'plugin.dispensary.eventing.api.event_subscription_management.subscribe',
  'plugin.dispensary.eventing.api.event_subscription_management.unsubscribe',
  'plugin.dispensary.eventing.api.event_subscription_management.get_list',
];
const CREDENTIALS = 'The webhook "%name" would receive credentials and cannot be subscribed.';
const HEADER_VALUE = 'Bearer erp-api-key-0123456789';

describe('Webhooks and events: signing secrets and hook headers never leave the service again', function () {
  this.timeout(60_000);
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  const log = captureLogger();

  const admin = (req: InjectRequest) => req.set('Authorization', `Bearer ${w.adminToken}`);
  const hook = (overrides: Record<string, unknown> = {}) => ({
    webhook_method: ADD_ITEMS,
    webhook_type: 'before',
    batch_name: 'b1',
    hook_name: 'h1',
    url: receiver.url('/hook'),
    headers: [{ name: 'authorization', value: HEADER_VALUE }],
    ...overrides,
  });
  const operationsText = async () =>
    JSON.stringify(await w.d.t.app.knex('magento_operation').select('serialized_data', 'result_serialized_data'));

  before(async () => {
    w = await WebhookWorld.start({ logger: log.logger });
    await w.d.products('K-1', 'K-2');
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    await w.d.t.app.knex('webhook_subscription').delete();
    await w.d.t.app.knex('event_subscription').delete();
    w.d.t.app.get<HookRegistry>('Dispensary\\Webhooks\\Model\\HookRegistry').invalidate();
    receiver.received.length = 0;
    receiver.answer = () => ({ json: { op: 'success' } });
  });

  describe('hooks on the subscription methods', () => {
    for (const method of HOOK_METHODS) {
      for (const type of ['before', 'after']) {
        it(`should refuse a ${type} hook on ${method} (400, nothing stored)`, async () => {
          const res = await w.subscribeRaw(hook({ webhook_method: method, webhook_type: type }));
          expect(res.status, JSON.stringify(res.body)).to.equal(400);
          expect(res.body).to.deep.equal({ message: CREDENTIALS, parameters: { name: method } });
          expect(await w.d.t.app.knex('webhook_subscription').select()).to.deep.equal([]);
        });
      }
    }

    it('should never call a hook on them stored before they were refused, and still answer the new secret once', async () => {
      // A row as an earlier version stored it: the REST route refuses it now, so write it as the repository does.
      const definition: WebhookData = {
        webhook_method: WEBHOOK_SUBSCRIBE,
        webhook_type: 'after',
        batch_name: 'spy',
        batch_order: 0,
        hook_name: 'spy',
        url: receiver.url('/spy'),
        method: 'POST',
        priority: 0,
        required: false,
        timeout: 5000,
        soft_timeout: null,
        fallback_error_message: null,
        ttl: 0,
        headers: [],
        fields: [],
        rules: [],
      };
      await w.d.t.app
        .get<SubscriptionRepository>('Dispensary\\Webhooks\\Model\\SubscriptionRepository')
        .save(definition, `whsec_${Buffer.from('a spy secret of thirty-two bytes').toString('base64')}`);
      w.d.t.app.get<HookRegistry>('Dispensary\\Webhooks\\Model\\HookRegistry').invalidate();
      const res = await w.subscribeRaw(hook({ hook_name: 'victim' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.secret).to.match(/^whsec_/);
      expect(receiver.received).to.deep.equal([]);
    });

    it('should stop start-up on a webhooks.xml hook on them, naming the file and the hook', async () => {
      const tree = ModuleTree.create();
      try {
        tree.module('Acme_Spy', {
          files: {
            'etc/webhooks.xml': configXml(
              `<method name="${WEBHOOK_SUBSCRIBE}" type="after"><hooks><batch name="spy">` +
                `<hook name="spy" url="https://spy.example.com/" secret="env:SPY_SECRET"/>` +
                `</batch></hooks></method>`,
            ),
          },
        });
        await expectConfigError(
          () => readWebhooksXml(loadModules(tree.sources(), tree.configFile)),
          tree.path('Acme_Spy', 'etc/webhooks.xml'),
          'hook "spy"',
          'credentials',
        );
      } finally {
        tree.remove();
      }
    });
  });

  describe('the queue and bulk status', () => {
    for (const [route, body] of [
      ['/V1/webhooks/subscribe', () => ({ webhook: hook() })],
      ['/V1/eventing/eventSubscribe', () => ({ event: { name: ITEMS_ADDED, destination: receiver.url('/events') } })],
    ] as const) {
      it(`should have no async or bulk form of ${route} (404, nothing queued, no secret in magento_operation)`, async () => {
        const before = await operationsText();
        for (const [prefix, send] of [
          ['/rest/async', body()],
          ['/rest/all/async', body()],
          ['/rest/async/bulk', [body()]],
        ] as const) {
          const res = await admin(w.d.request().post(prefix + route)).send(send as object);
          expect(res.status, `${prefix}${route}: ${JSON.stringify(res.body)}`).to.equal(404);
          expect(res.body).to.deep.equal({ message: 'Request does not match any route.' });
        }
        const after = await operationsText();
        expect(after).to.equal(before);
        expect(after).not.to.include('whsec_');
        expect(await w.d.t.app.knex('webhook_subscription').select()).to.deep.equal([]);
      });
    }

    it('should still take the async form of unsubscribe, which carries no secret', async () => {
      const res = await admin(w.d.request().post('/rest/async/V1/webhooks/unsubscribe')).send({ webhook: hook() });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
    });

    it('should leave the subscribe routes out of the async schema', async () => {
      const schema = await admin(w.d.request().get('/rest/all/async/schema'));
      expect(schema.status).to.equal(200);
      const paths = Object.keys((schema.body as { paths: Record<string, unknown> }).paths).join('\n');
      expect(paths).not.to.include('webhooks/subscribe');
      expect(paths).not.to.include('eventSubscribe');
      expect(paths).to.include('webhooks/unsubscribe');
    });
  });

  describe('listing', () => {
    it('should mask header values in GET /V1/webhooks/list and webhooks:list, keep their names, and still send them', async () => {
      await w.subscribe(hook());
      const list = await admin(w.d.request().get('/rest/V1/webhooks/list'));
      expect(list.status).to.equal(200);
      const listed = (list.body as Record<string, unknown>[]).find((h) => h.hook_name === 'h1')!;
      expect(listed.headers).to.deep.equal([{ name: 'authorization', value: '******' }]);
      expect(JSON.stringify(list.body)).not.to.include(HEADER_VALUE).and.not.to.include('whsec_');
      const cli = await w.d.t.cli('webhooks:list');
      expect(cli.code, cli.err.join('\n')).to.equal(0);
      const printed = cli.out.join('\n');
      expect(printed).to.include('header authorization: ******');
      expect(printed).not.to.include(HEADER_VALUE).and.not.to.include('whsec_');
      // The receiver still gets the real header.
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'K-1', qty: 1 }] } });
      const added = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-2', qty: 1 }] } });
      expect(added.status, JSON.stringify(added.body)).to.equal(200);
      expect(receiver.received.map((x) => x.headers.authorization)).to.deep.equal([HEADER_VALUE]);
      await w.clear();
    });
  });

  describe('storage and logs', () => {
    it('should store webhook and event secrets encrypted, and log neither them nor header values', async () => {
      log.lines.length = 0;
      const hooked = await w.subscribe(hook({ required: false }));
      const event = await admin(w.d.request().post('/rest/V1/eventing/eventSubscribe')).send({
        event: { name: ITEMS_ADDED, destination: receiver.url('/events') },
      });
      expect(event.status, JSON.stringify(event.body)).to.equal(200);
      const secrets = [String(hooked.secret), String(event.body.secret)];
      for (const secret of secrets) expect(secret).to.match(/^whsec_/);
      const rows = [
        ...((await w.d.t.app.knex('webhook_subscription').select('secret', 'definition')) as object[]),
        ...((await w.d.t.app.knex('event_subscription').select('secret', 'definition')) as object[]),
      ];
      expect(rows).to.have.length(2);
      for (const row of rows as { secret: string }[]) expect(row.secret).to.match(/^v1:/);
      const stored = JSON.stringify(rows);
      for (const secret of secrets) expect(stored).not.to.include(secret.slice(6));
      // A failing call and a failing subscription are logged, without secrets or headers.
      receiver.answer = () => ({ status: 500, raw: 'no' });
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'K-1', qty: 1 }] } });
      await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-2', qty: 1 }] } });
      await w.subscribeRaw(hook({ hook_name: 'bad', url: 'http://169.254.169.254/' }));
      await admin(w.d.request().get('/rest/V1/webhooks/list'));
      const logged = JSON.stringify(log.lines);
      expect(logged).to.include('http_error');
      for (const secret of secrets) expect(logged).not.to.include(secret.slice(6));
      expect(logged).not.to.include(HEADER_VALUE);
      await w.clear();
      await admin(w.d.request().post(`/rest/V1/eventing/eventUnsubscribe/${ITEMS_ADDED}`));
    });
  });
});
