/**
 * Issue 25, point 2: the webhook and eventing routes are admin routes (Magento's
 * `Magento_AdobeCommerceWebhooks::webhooks_list` and friends). Their ACL resources are
 * `scope="global"` in acl.xml, so a token bound to one store (an API key or an OAuth
 * integration) never holds them, whatever it was granted: it cannot subscribe, list or
 * unsubscribe a hook or an event, replace the admin's by reusing its names, or reach another
 * store's data through one; in the synchronous, async and bulk forms alike. A global admin or
 * integration token still can. The attacks are the ones the issue reports, on loopback only.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { oauthHeader, type Credentials } from '../Integration/support/oauthClient.js';
import { denied } from '../Recommendation/support.js';
import { ITEMS_ADDED } from '../Eventing/support.js';
import { ADD_ITEMS, WebhookWorld } from './support.js';

const PRODUCT_SAVE = 'plugin.dispensary.catalog.api.product_repository.save';
const WEBHOOKS_SUBSCRIBE = 'Dispensary_Webhooks::webhooks_subscribe';
const WEBHOOKS_LIST = 'Dispensary_Webhooks::webhooks_list';
const EVENTING_SUBSCRIBE = 'Dispensary_Eventing::eventing_subscribe';
const EVENTING_LIST = 'Dispensary_Eventing::eventing_list';

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly resource: string;
  /** The subscribe routes have no async or bulk form (their answer carries the signing secret): 404 there. */
  readonly noAsync?: true;
}

describe('Webhooks and events: only a caller of every store may use their routes', function () {
  this.timeout(60_000);
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let server: Server;
  let base: string;
  let alphaToken: string;
  let alphaOauth: Credentials;
  let allOauth: Credentials;

  const hook = (overrides: Record<string, unknown> = {}) => ({
    webhook_method: ADD_ITEMS,
    webhook_type: 'before',
    batch_name: 'b1',
    hook_name: 'h1',
    url: receiver.url('/attacker'),
    ...overrides,
  });
  const calls = (): Call[] => [
    {
      method: 'POST',
      path: '/V1/webhooks/subscribe',
      body: { webhook: hook() },
      resource: WEBHOOKS_SUBSCRIBE,
      noAsync: true,
    },
    { method: 'POST', path: '/V1/webhooks/unsubscribe', body: { webhook: hook() }, resource: WEBHOOKS_SUBSCRIBE },
    { method: 'GET', path: '/V1/webhooks/list', resource: WEBHOOKS_LIST },
    {
      method: 'POST',
      path: '/V1/eventing/eventSubscribe',
      body: { event: { name: ITEMS_ADDED, destination: receiver.url('/attacker') } },
      resource: EVENTING_SUBSCRIBE,
      noAsync: true,
    },
    { method: 'POST', path: `/V1/eventing/eventUnsubscribe/${ITEMS_ADDED}`, resource: EVENTING_SUBSCRIBE },
    { method: 'GET', path: '/V1/eventing/getEventSubscriptions', resource: EVENTING_LIST },
  ];
  const bearer = (call: Call, token: string, prefix = '/rest') => {
    const req = call.method === 'GET' ? w.d.request().get(prefix + call.path) : w.d.request().post(prefix + call.path);
    req.set('Authorization', `Bearer ${token}`);
    return call.body === undefined ? req : req.send(call.body as object);
  };
  const signed = async (credentials: Credentials, call: Call, prefix = '/rest') => {
    const url = `${base}${prefix}${call.path}`;
    const res = await fetch(url, {
      method: call.method,
      headers: {
        Authorization: oauthHeader(credentials, call.method, url),
        ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const integration = async (name: string, ...scope: string[]): Promise<Credentials> => {
    const result = await w.d.t.cli('integration:create', '--name', name, ...scope, '--json');
    expect(result.code, result.err.join('\n')).to.equal(0);
    return JSON.parse(result.out.filter((l) => l !== '').pop()!) as Credentials;
  };
  const stored = async () => ({
    hooks: ((await w.d.t.app.knex('webhook_subscription').select('definition')) as { definition: string }[]).map(
      (row) => ({ url: (JSON.parse(row.definition) as { url: string }).url }),
    ),
    events: (
      (await w.d.t.app.knex('event_subscription').select('name', 'definition')) as {
        name: string;
        definition: string;
      }[]
    ).map((row) => ({
      name: row.name,
      destination: (JSON.parse(row.definition) as { destination: string }).destination,
    })),
  });
  const bulkCount = async () =>
    Number(((await w.d.t.app.knex('magento_bulk').count({ n: '*' }).first()) as { n: number | string }).n);

  before(async () => {
    w = await WebhookWorld.start();
    await w.d.t.createStore('alpha');
    await w.d.t.createStore('beta');
    await w.d.products('T-1', 'T-2');
    receiver = await WebhookReceiver.start();
    // The README's first calls: a store-bound token holding every resource.
    alphaToken = await w.d.t.integrationToken({ store: 'alpha' });
    server = w.d.http.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    alphaOauth = await integration('alpha-app', '--store', 'alpha');
    allOauth = await integration('all-app', '--all-stores');
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    await w.d.t.app.knex('webhook_subscription').delete();
    await w.d.t.app.knex('event_subscription').delete();
    receiver.received.length = 0;
    receiver.answer = () => ({ json: { op: 'success' } });
  });

  describe('a token bound to store alpha holding every resource', () => {
    for (const prefix of ['/rest', '/rest/alpha', '/rest/all']) {
      it(`should be refused every webhook and eventing route under ${prefix} (401, the resource named) and change nothing`, async () => {
        for (const call of calls()) {
          const res = await bearer(call, alphaToken, prefix);
          expect(res.status, `${call.method} ${prefix}${call.path}: ${JSON.stringify(res.body)}`).to.equal(401);
          expect(res.body).to.deep.equal(denied(call.resource));
        }
        expect(await stored()).to.deep.equal({ hooks: [], events: [] });
      });
    }

    it('should be refused the async and bulk forms (401 before anything is queued; 404 where there is none)', async () => {
      const before = await bulkCount();
      for (const call of calls().filter((c) => c.method === 'POST')) {
        for (const prefix of ['/rest/alpha/async', '/rest/alpha/async/bulk']) {
          const body = prefix.endsWith('bulk') ? [call.body ?? {}] : (call.body ?? {});
          const path = prefix.endsWith('bulk') ? call.path.replace(`/${ITEMS_ADDED}`, '/byName') : call.path;
          const res = await w.d
            .request()
            .post(prefix + path)
            .set('Authorization', `Bearer ${alphaToken}`)
            .send(body as object);
          expect(res.status, `${prefix}${path}: ${JSON.stringify(res.body)}`).to.equal(call.noAsync ? 404 : 401);
          if (!call.noAsync) expect(res.body).to.deep.equal(denied(call.resource));
        }
      }
      expect(await bulkCount()).to.equal(before);
    });

    it("should not replace the admin's hook or event subscription by reusing their names", async () => {
      await w.subscribe({ url: receiver.url('/admin') });
      const adminEvent = await w.d
        .request()
        .post('/rest/V1/eventing/eventSubscribe')
        .set('Authorization', `Bearer ${w.adminToken}`)
        .send({ event: { name: ITEMS_ADDED, destination: receiver.url('/admin-events') } });
      expect(adminEvent.status).to.equal(200);
      for (const call of calls().filter((c) => c.method === 'POST')) {
        expect((await bearer(call, alphaToken, '/rest/alpha')).status).to.equal(401);
      }
      expect(await stored()).to.deep.equal({
        hooks: [{ url: receiver.url('/admin') }],
        events: [{ name: ITEMS_ADDED, destination: receiver.url('/admin-events') }],
      });
      await w.clear();
    });

    it("should not change another integration's product price through a before hook on product save", async () => {
      const res = await bearer(
        {
          method: 'POST',
          path: '/V1/webhooks/subscribe',
          body: { webhook: hook({ webhook_method: PRODUCT_SAVE }) },
          resource: WEBHOOKS_SUBSCRIBE,
        },
        alphaToken,
        '/rest/alpha',
      );
      expect(res.status).to.equal(401);
      receiver.answer = () => ({ json: { op: 'replace', path: 'product/price', value: 0.01 } });
      const saved = await w.d
        .call('put', 'all', '/products/T-1')
        .send({ product: { sku: 'T-1', name: 'Product T-1', price: 10 } });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      expect(saved.body.price).to.equal(10);
      expect(receiver.received).to.deep.equal([]);
    });

    it('should not be granted a global resource at creation: integration:token:create --store refuses it', async () => {
      const result = await w.d.t.cli(
        'integration:token:create',
        '--name',
        'alpha-hooks',
        '--store',
        'alpha',
        '--resource',
        WEBHOOKS_LIST,
      );
      expect(result.code).not.to.equal(0);
      expect(result.err.join('\n')).to.include(
        `The ACL resource "${WEBHOOKS_LIST}" is held only by a token for all stores`,
      );
      expect(await w.d.t.app.knex('integration_token').where({ name: 'alpha-hooks' }).first()).to.equal(undefined);
    });
  });

  describe('an OAuth integration bound to store alpha', () => {
    it('should be refused every webhook and eventing route, in the synchronous and async forms, and change nothing', async () => {
      for (const call of calls()) {
        const res = await signed(alphaOauth, call, '/rest/alpha');
        expect(res.status, `${call.method} ${call.path}: ${JSON.stringify(res.body)}`).to.equal(401);
        expect(res.body).to.deep.equal(denied(call.resource));
        if (call.method === 'POST') {
          const queued = await signed(alphaOauth, call, '/rest/alpha/async');
          expect(queued.status).to.equal(call.noAsync ? 404 : 401);
        }
      }
      expect(await stored()).to.deep.equal({ hooks: [], events: [] });
    });
  });

  describe('callers of every store', () => {
    it('should let the admin token, an all-stores API key and an all-stores OAuth integration subscribe, list and unsubscribe', async () => {
      for (const [who, send] of [
        ['admin token', (call: Call) => bearer(call, w.adminToken)],
        ['all-stores token', (call: Call) => bearer(call, w.d.token)],
        ['all-stores OAuth integration', (call: Call) => signed(allOauth, call)],
      ] as const) {
        for (const call of calls()) {
          const res = await send(call);
          expect(res.status, `${who}: ${call.method} ${call.path}: ${JSON.stringify(res.body)}`).to.equal(200);
        }
      }
      expect(await stored()).to.deep.equal({ hooks: [], events: [] });
    });

    it('should let an all-stores subscriber receive every store (the trust model: a subscriber sees all stores)', async () => {
      await w.subscribe({ url: receiver.url('/admin') });
      for (const store of ['alpha', 'beta']) {
        const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'T-1', qty: 1 }] } }, store);
        const added = await w.d.add(
          r.recommendation_id,
          { recommendation: { items: [{ sku: 'T-2', qty: 1 }] } },
          store,
        );
        expect(added.status, JSON.stringify(added.body)).to.equal(200);
      }
      expect(receiver.received).to.have.length(2);
      await w.clear();
    });
  });
});
