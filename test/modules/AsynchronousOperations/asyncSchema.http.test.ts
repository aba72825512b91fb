/**
 * `GET /rest/<scope>/async/schema`: Magento's AsynchronousSchemaRequestProcessor takes that GET
 * (every other GET under /async answers 400). Each route with async forms appears as
 * `/async/V1/...` and `/async/bulk/V1/...`, answering 202 with the bulk.
 */
import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';

describe('Async web API: GET /rest/<scope>/async/schema', () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(() => t?.stop());

  it('should list the async and bulk forms of every POST, PUT and DELETE route that needs a caller, and nothing else', async () => {
    const res = await t.request().get('/rest/default/async/schema');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ swagger: '2.0', basePath: '/rest/default' });
    const paths = res.body.paths as Record<
      string,
      Record<
        string,
        {
          responses: Record<string, unknown>;
          parameters: { in: string; schema?: { type: string; items?: { required?: string[] } } }[];
        }
      >
    >;
    // Not the routes webapi.xml marks async="false" (the webhook and event subscribe routes: their answer carries a secret).
    const expected = [...t.app.routes.keys()].filter(
      (r) => r.method !== 'GET' && !r.resources.includes('anonymous') && r.async !== false,
    );
    expect([...t.app.routes.keys()].filter((r) => r.async === false).map((r) => r.url)).to.include.members([
      '/V1/webhooks/subscribe',
      '/V1/eventing/eventSubscribe',
    ]);
    const listed = Object.entries(paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(listed).to.have.length(expected.length * 2);
    expect(listed).to.include.members([
      'POST /async/V1/products',
      'PUT /async/V1/products/{sku}',
      'PUT /async/bulk/V1/products/bySku',
      'DELETE /async/bulk/V1/products/bySku',
    ]);
    expect(
      listed.some(
        (l) => l.startsWith('GET ') || l.includes('integration/admin/token') || l.includes('webhooks/subscribe'),
      ),
    ).to.equal(false);
    const bulkAdd = paths['/async/bulk/V1/dispensary/recommendation/byRecommendationId/item']!.post!;
    expect(Object.keys(bulkAdd.responses)).to.include('202');
    expect(bulkAdd.parameters).to.have.length(1);
    expect(bulkAdd.parameters[0]!.schema!.type).to.equal('array');
    expect(bulkAdd.parameters[0]!.schema!.items!.required).to.include.members(['recommendationId', 'recommendation']);
    expect(res.body.definitions).to.have.property('async-response');
  });

  it('should still answer 400 for any other GET under /async', async () => {
    const res = await t.request().get('/rest/default/async/schemas');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ message: 'Specified request cannot be processed.' });
  });
});
