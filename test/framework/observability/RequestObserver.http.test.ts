/**
 * One log line per request, X-Request-Id on every answer, the 500's report id in the line, and
 * Prometheus metrics at GET /metrics (loopback only, or a bearer token).
 */
import { expect } from 'chai';
import request from 'supertest';
import type { Dispensary } from '../../modules/Recommendation/support.js';
import { startAbuseApp, type LogLine } from '../../abuse/support.js';

const requestLines = (logs: LogLine[]) => logs.filter((l) => l.msg === 'request');

describe('Request logs and metrics', () => {
  let d: Dispensary;
  let logs: LogLine[];
  before(async () => {
    ({ d, logs } = await startAbuseApp());
    await d.products('LOG-1');
  });
  after(async () => d?.stop());
  beforeEach(() => logs.splice(0));

  describe('X-Request-Id', () => {
    it('should echo a well-formed id and name a fresh one otherwise, on every answer', async () => {
      const echoed = await d.call('get', 'all', '/products/LOG-1').set('X-Request-Id', 'abc.DEF_123-x');
      expect(echoed.headers['x-request-id']).to.equal('abc.DEF_123-x');
      for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
        const res = await d.request().get('/health').set('X-Request-Id', bad);
        expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      }
      const notFound = await d.request().get('/nowhere');
      expect(notFound.status).to.equal(404);
      expect(notFound.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('the log line', () => {
    it('should name the request id, method, route pattern, store, caller, status and duration, and no token or body', async () => {
      const res = await d
        .call('post', 'all', '/products')
        .set('X-Request-Id', 'req-1')
        .send({ product: { sku: 'LOG-2', name: 'secret name' } });
      expect(res.status).to.equal(200);
      const lines = requestLines(logs);
      expect(lines).to.have.length(1);
      const line = lines[0]!;
      expect(line).to.deep.include({
        reqId: 'req-1',
        method: 'POST',
        route: '/V1/products',
        store: 'admin',
        callerType: 'integration',
        status: 200,
      });
      expect(line.callerId).to.be.a('number');
      expect(line.durationMs).to.be.a('number');
      const text = JSON.stringify(logs);
      expect(text).to.not.include(d.token);
      expect(text).to.not.include('secret name');
    });

    it('should name the route pattern, not the path, and a guest caller', async () => {
      await d
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'nobody', password: 'wrong-password' });
      await d.call('get', 'default', '/dispensary/recommendation/00000000-0000-4000-8000-000000000000');
      const lines = requestLines(logs);
      expect(lines.map((l) => [l.route, l.callerType, l.status])).to.deep.equal([
        ['/V1/integration/admin/token', 'guest', 401],
        ['/V1/dispensary/recommendation/:recommendationId', 'integration', 404],
      ]);
    });

    it('should name the async and bulk route patterns and the caller, under the request id the client sent', async () => {
      const sent = await d
        .request()
        .post('/rest/all/async/V1/products')
        .set('Authorization', `Bearer ${d.token}`)
        .set('X-Request-Id', 'req-async')
        .send({ product: { sku: 'LOG-3', name: 'x' } });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
      const bulk = await d
        .request()
        .post('/rest/all/async/bulk/V1/products')
        .set('Authorization', `Bearer ${d.token}`)
        .set('X-Request-Id', 'req-bulk')
        .send([{ product: { sku: 'LOG-4', name: 'x' } }]);
      expect(bulk.status, JSON.stringify(bulk.body)).to.equal(202);
      const lines = requestLines(logs).filter((l) => l.reqId === 'req-async' || l.reqId === 'req-bulk');
      expect(lines.map((l) => [l.reqId, l.route, l.callerType, l.status])).to.deep.equal([
        ['req-async', '/async/V1/products', 'integration', 202],
        ['req-bulk', '/async/bulk/V1/products', 'integration', 202],
      ]);
    });

    it('should carry the report id of a 500 body', async () => {
      // A broken table makes the next read fail unexpectedly.
      await d.t.app.knex.schema.renameTable('catalog_product', 'catalog_product_away');
      try {
        const res = await d.call('get', 'all', '/products/LOG-1').set('X-Request-Id', 'req-500');
        expect(res.status).to.equal(500);
        const reportId = /Report ID: (webapi-[0-9a-f]+)/.exec(res.body.message)?.[1];
        expect(reportId).to.be.a('string');
        const line = requestLines(logs).find((l) => l.reqId === 'req-500');
        expect(line).to.deep.include({ status: 500, reportId });
        const error = logs.find((l) => l.msg === 'Unexpected error in web API call');
        expect(error).to.deep.include({ reportId, reqId: 'req-500' });
      } finally {
        await d.t.app.knex.schema.renameTable('catalog_product_away', 'catalog_product');
      }
    });
  });

  describe('GET /metrics', () => {
    it('should count requests by route pattern and status, and show the pool and event-loop lag', async () => {
      await d.call('get', 'all', '/products/LOG-1');
      await d.call('get', 'all', '/products/NOPE');
      const res = await d.request().get('/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.text).to.match(/http_requests_total\{method="GET",route="\/V1\/products\/:sku",status="200"\} [1-9]/);
      expect(res.text).to.match(/http_requests_total\{method="GET",route="\/V1\/products\/:sku",status="404"\} [1-9]/);
      expect(res.text).to.match(
        /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/V1\/products\/:sku",status="200"\}/,
      );
      expect(res.text).to.match(/db_pool_connections\{state="used"\} \d/);
      expect(res.text).to.match(/db_pool_max_connections \d/);
      expect(res.text).to.include('nodejs_eventloop_lag_seconds');
      expect(res.text).to.include('process_resident_memory_bytes');
    });

    it('should put every unknown path under one label', async () => {
      for (let i = 0; i < 5; i++) await d.request().get(`/random-${i}`);
      const res = await d.request().get('/metrics');
      expect(res.text).to.not.include('random-');
      expect(res.text).to.match(/route="\(unmatched\)",status="404"\} [5-9]/);
    });
  });

  describe('GET /metrics behind a loopback proxy (TRUST_PROXY=loopback)', () => {
    let proxied: Dispensary;
    before(async () => {
      ({ d: proxied } = await startAbuseApp({ trustProxy: 'loopback' }));
    });
    after(async () => proxied?.stop());

    it('should refuse a client the proxy names as remote, and answer the proxy itself', async () => {
      const remote = await request(proxied.http).get('/metrics').set('X-Forwarded-For', '203.0.113.9');
      expect(remote.status).to.equal(403);
      // A forged loopback entry does not help: the proxy appends the real peer, the rightmost untrusted entry.
      const forged = await request(proxied.http).get('/metrics').set('X-Forwarded-For', '127.0.0.1, 203.0.113.9');
      expect(forged.status).to.equal(403);
      expect((await request(proxied.http).get('/metrics')).status).to.equal(200);
      expect((await request(proxied.http).get('/metrics').set('X-Forwarded-For', '127.0.0.1')).status).to.equal(200);
    });
  });

  describe('GET /metrics with METRICS_TOKEN set', () => {
    let secured: Dispensary;
    before(async () => {
      ({ d: secured } = await startAbuseApp({ metricsToken: 'scrape-me' }));
    });
    after(async () => secured?.stop());

    it('should answer 401 without the token and the metrics with it', async () => {
      expect((await request(secured.http).get('/metrics')).status).to.equal(401);
      expect((await request(secured.http).get('/metrics').set('Authorization', 'Bearer wrong')).status).to.equal(401);
      const res = await request(secured.http).get('/metrics').set('Authorization', 'Bearer scrape-me');
      expect(res.status).to.equal(200);
      expect(res.text).to.include('http_requests_total');
    });
  });
});
