import { expect } from 'chai';
import type { RouteDefinition } from '../../../app/framework/config/WebapiConfig.js';
import { partitionKeyOf } from '../../../app/framework/webapi-async/AsynchronousRequestProcessor.js';

/** The partition key a queued operation carries: which operations the db queue keeps in order. */
describe('partitionKeyOf: the entity an async operation touches', () => {
  const route = (partitionKey?: string) =>
    ({ url: '/V1/foo/:fooId/bar/:barId', method: 'PUT', ...(partitionKey ? { partitionKey } : {}) }) as RouteDefinition;
  const params = ['fooId', 'barId'];

  it("should name the route's first path parameter with its value by default", () => {
    expect(partitionKeyOf(route(), params, { fooId: '42', barId: '7' }, {})).to.equal('fooId=42');
  });

  it('should take the parameter or the body path that partitionKey names', () => {
    expect(partitionKeyOf(route('barId'), params, { fooId: '42', barId: '7' }, {})).to.equal('barId=7');
    const body = { foo: { patient_id: 9 } };
    expect(partitionKeyOf(route('foo.patient_id'), params, { fooId: '42', barId: '7' }, body)).to.equal(
      'foo.patient_id=9',
    );
  });

  it('should give no key where the route has no path parameter or the request lacks the value', () => {
    expect(partitionKeyOf(route(), [], {}, { a: 1 })).to.equal(null);
    expect(partitionKeyOf(route('foo.patient_id'), params, {}, { foo: {} })).to.equal(null);
    expect(partitionKeyOf(route('foo.patient_id'), params, {}, { foo: { patient_id: { id: 1 } } })).to.equal(null);
    expect(partitionKeyOf(route('foo.patient_id'), params, {}, null)).to.equal(null);
  });
});
