import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';

describe('GET /rest/<scope>/schema', () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t?.stop());

  it('should describe every route in the Swagger 2.0 shape, from the contracts', async () => {
    const res = await t.request().get('/rest/default/schema?services=all');
    expect(res.status).to.equal(200);
    expect(res.body.swagger).to.equal('2.0');
    expect(res.body.basePath).to.equal('/rest/default');
    const add = res.body.paths['/V1/dispensary/recommendation/{recommendationId}/item'].post;
    expect(add['x-service']).to.equal(
      'Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface::addItems',
    );
    expect(add['x-resources']).to.deep.equal(['Dispensary_Recommendation::recommendation']);
    expect(add.parameters[0]).to.deep.equal({ name: 'recommendationId', in: 'path', type: 'string', required: true });
    const body = add.parameters.find((p: { in: string }) => p.in === 'body');
    expect(body.schema.required).to.deep.equal(['recommendation']);
    expect(body.schema.properties.recommendation).to.have.property('type');
    expect(Object.keys(res.body.paths)).to.include('/V1/store/storeViews');
  });

  it('should declare every {placeholder} of a path as a path parameter, even one the method does not take', async () => {
    // Swagger 2.0 requires it, and Swagger UI's "Try it out" sends an undeclared {itemId} literally.
    const res = await t.request().get('/rest/default/schema?services=all');
    for (const [url, operations] of Object.entries(
      res.body.paths as Record<string, Record<string, { parameters: { name: string; in: string }[] }>>,
    )) {
      const placeholders = [...url.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, operation] of Object.entries(operations)) {
        const declared = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared, `${method.toUpperCase()} ${url}`).to.have.members(placeholders);
      }
    }
    const stock = res.body.paths['/V1/products/{productSku}/stockItems/{itemId}'].put;
    expect(stock.parameters).to.deep.include({ name: 'itemId', in: 'path', type: 'string', required: true });
  });

  it('should answer 400 for an unknown scope', async () => {
    const res = await t.request().get('/rest/nowhere/schema');
    expect(res.status).to.equal(400);
  });
});
