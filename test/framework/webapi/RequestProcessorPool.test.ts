/**
 * RequestProcessorPool: the first processor that can process a request takes it, di.xml's before
 * the framework's (withDefaults), one named like a framework processor replacing it; none: 400.
 */
import { expect } from 'chai';
import type {
  RequestProcessorInterface,
  RestRequest,
} from '../../../app/framework/webapi/RequestProcessorInterface.js';
import { RequestProcessorPool } from '../../../app/framework/webapi/RequestProcessorPool.js';
import { WebapiException } from '../../../app/framework/webapi/WebapiException.js';

const processor = (name: string, path: string): RequestProcessorInterface & { name: string } => ({
  name,
  canProcess: (request) => request.routePath === path || path === '*',
  process: async () => name,
});
const request = (routePath: string) => ({ routePath }) as RestRequest;
const chosen = (pool: RequestProcessorPool, path: string) =>
  (pool.getProcessor(request(path)) as RequestProcessorInterface & { name: string }).name;

describe('RequestProcessorPool', () => {
  const defaults = { syncSchema: processor('schema', '/schema'), sync: processor('sync', '*') };

  it('should ask the processors in order and hand the request to the first that can process it', () => {
    const pool = new RequestProcessorPool({ a: processor('a', '/a'), all: processor('all', '*') });
    expect(chosen(pool, '/a')).to.equal('a');
    expect(chosen(pool, '/b')).to.equal('all');
  });

  it("should ask di.xml's processors before the framework's, and let one named like the framework's replace it", () => {
    const pool = new RequestProcessorPool({ mine: processor('mine', '/schema') }).withDefaults(defaults);
    expect(Object.keys(pool.requestProcessors)).to.deep.equal(['mine', 'syncSchema', 'sync']);
    expect(chosen(pool, '/schema')).to.equal('mine');
    expect(chosen(pool, '/V1/x')).to.equal('sync');
    const replaced = new RequestProcessorPool({ syncSchema: processor('other schema', '/schema') }).withDefaults(
      defaults,
    );
    expect(Object.keys(replaced.requestProcessors)).to.deep.equal(['syncSchema', 'sync']);
    expect(chosen(replaced, '/schema')).to.equal('other schema');
  });

  it("should answer Magento's 400 when no processor can process the request", () => {
    const pool = new RequestProcessorPool({ a: processor('a', '/a') });
    let error: unknown;
    try {
      pool.getProcessor(request('/b'));
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(WebapiException).with.property('httpStatus', 400);
    expect((error as WebapiException).phrase).to.equal('Specified request cannot be processed.');
  });
});
