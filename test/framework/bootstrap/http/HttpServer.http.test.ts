import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { listen } from '../../../abuse/support.js';
import { Dispensary } from '../../../modules/Recommendation/support.js';

describe('HttpServer: the real server around the Express app', () => {
  let d: Dispensary;
  let server: Awaited<ReturnType<typeof listen>>;
  const prototypes: { req: object | null; res: object | null }[] = [];
  before(async () => {
    d = await Dispensary.start();
    server = await listen(d);
    // Before Express's own 'request' listener runs: what the server itself made.
    server.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      prototypes.push({ req: Object.getPrototypeOf(req) as object, res: Object.getPrototypeOf(res) as object });
    });
  });
  after(async () => {
    await server?.close();
    await d?.stop();
  });

  it("should make requests and responses with the Express app's own prototypes, so Express never swaps them", async () => {
    prototypes.length = 0;
    const res = await request(`http://127.0.0.1:${server.port}`)
      .get('/rest/V1/store/storeViews')
      .set('Authorization', `Bearer ${d.token}`);
    expect(res.status).to.equal(200);
    const express = d.t.app.http();
    expect(prototypes).to.have.length(1);
    expect(prototypes[0]!.req).to.equal(express.request);
    expect(prototypes[0]!.res).to.equal(express.response);
  });

  it('should serve the whole contract through them: writes, reads, errors, the JSON 404', async () => {
    const base = request(`http://127.0.0.1:${server.port}`);
    await d.products('PROTO-1', 'PROTO-2');
    const patient = await d.patient();
    const created = await base
      .post(`/rest/default/V1/dispensary/patient/${patient}/recommendation`)
      .set('Authorization', `Bearer ${d.token}`)
      .send({ recommendation: { items: ['PROTO-1'] } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.recommendation_id as string;
    const added = await base
      .post(`/rest/default/V1/dispensary/recommendation/${id}/item`)
      .set('Authorization', `Bearer ${d.token}`)
      .send({ recommendation: { items: [{ sku: 'proto-2', qty: '3' }] } });
    expect(added.status).to.equal(200);
    expect(added.body.items.map((i: { sku: string; qty: number }) => [i.sku, i.qty])).to.deep.equal([
      ['PROTO-1', 1],
      ['PROTO-2', 3],
    ]);
    const read = await base
      .get(`/rest/default/V1/dispensary/recommendation/${id}?fields=items[sku]`)
      .set('Authorization', `Bearer ${d.token}`);
    expect(read.body).to.deep.equal({ items: [{ sku: 'PROTO-1' }, { sku: 'PROTO-2' }] });
    const invalid = await base
      .put(`/rest/default/V1/dispensary/recommendation/${id}/item`)
      .set('Authorization', `Bearer ${d.token}`)
      .send({ recommendation: { items: [{ sku: 'PROTO-1', qty: 0 }] } });
    expect(invalid.status).to.equal(400);
    expect((await base.get('/rest/V1/store/storeViews')).status).to.equal(401);
    const unknown = await base.get('/nowhere');
    expect([unknown.status, unknown.body]).to.deep.equal([404, { message: 'Request does not match any route.' }]);
    expect(unknown.headers['x-request-id']).to.be.a('string');
  });
});
