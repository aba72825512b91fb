/**
 * `t.request()` (test/support/inject.ts): a request through the whole application with no socket,
 * answering what supertest answers, and seen by the application as a client's request.
 */
import net from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import request from 'supertest';
import { TestApp } from './testApp.js';

interface LogLine {
  msg: string;
  [key: string]: unknown;
}

describe('TestApp.request(): in-process requests', function () {
  this.timeout(60_000);
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  let t: TestApp;
  let token: string;

  before(async () => {
    t = await TestApp.start({ logger });
    token = await t.integrationToken({ allStores: true });
  });
  after(async () => {
    await t?.stop();
  });

  const requestLogs = () => lines.filter((line) => line.msg === 'request');

  it('should answer as supertest does for the same request, without opening a socket, and leave supertest working', async () => {
    const listen = net.Server.prototype.listen;
    let listened = 0;
    net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
      listened++;
      return (listen as (...a: unknown[]) => net.Server).apply(this, args);
    } as typeof listen;
    let injected;
    try {
      injected = await t.request().get('/rest/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    } finally {
      net.Server.prototype.listen = listen;
    }
    expect(listened).to.equal(0);
    const socket = await request(t.http).get('/rest/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
    expect(injected.status).to.equal(socket.status).and.equal(200);
    expect(injected.type).to.equal(socket.type).and.equal('application/json');
    expect(injected.body).to.deep.equal(socket.body);
    expect(injected.text).to.equal(socket.text);
    expect(injected.get('Content-Type')).to.equal(socket.get('Content-Type'));
  });

  it('should log and count a completed request with its status, not as a client that left (499)', async () => {
    lines.length = 0;
    await t.request().get('/rest/V1/store/storeViews').set('Authorization', `Bearer ${token}`).expect(200);
    await t.request().get('/rest/V1/store/storeViews').expect(401);
    expect(requestLogs().map((line) => line.status)).to.deep.equal([200, 401]);
  });

  it('should send an object as JSON, and a query with repeated keys', async () => {
    const res = await t
      .request()
      .post('/rest/V1/integration/admin/token')
      .send({ username: 'nobody' })
      .send({ password: 'wrong' });
    expect(res.status).to.equal(401);
    expect(res.body).to.have.property('message').that.is.a('string');

    const search = await t
      .request()
      .get('/rest/V1/products')
      .query({ 'searchCriteria[pageSize]': 1, fields: ['items[sku]'] })
      .set('Authorization', `Bearer ${token}`);
    expect(search.status, search.text).to.equal(200);
  });

  it('should give the application the client address it is told (default 127.0.0.1)', async () => {
    lines.length = 0;
    await t.request().post('/rest/V1/integration/admin/token').send({ username: 'a', password: 'b' });
    await t
      .request({ remoteAddress: '203.0.113.9' })
      .post('/rest/V1/integration/admin/token')
      .send({ username: 'a', password: 'b' });
    const failures = lines.filter((line) => line.event === 'admin_login_failed');
    expect(failures.map((line) => line.clientAddress)).to.deep.equal(['127.0.0.1', '203.0.113.9']);
  });

  it('should fail an expectation with the status and body it got', async () => {
    const failed = await t
      .request()
      .get('/rest/V1/store/storeViews')
      .expect(200)
      .then(
        () => null,
        (error: Error) => error,
      );
    expect(failed?.message).to.match(/^expected 200, got 401: \{"message"/);
    await t
      .request()
      .get('/rest/V1/store/storeViews')
      .expect('Content-Type', /^application\/json/)
      .expect(401);
  });
});
