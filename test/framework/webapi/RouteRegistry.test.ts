import { expect } from 'chai';
import type { RouteDefinition } from '../../../app/framework/config/WebapiConfig.js';
import { RouteRegistry } from '../../../app/framework/webapi/RouteRegistry.js';

function route(method: RouteDefinition['method'], url: string): RouteDefinition {
  return {
    method,
    url,
    serviceClass: 'A\\B\\C',
    serviceMethod: 'x',
    resources: ['anonymous'],
    data: [],
    file: 'webapi.xml',
    module: 'A_B',
  };
}

describe('RouteRegistry', () => {
  const registry = new RouteRegistry<string>();
  for (const [method, url] of [
    ['GET', '/V1/a/:x/c'],
    ['GET', '/V1/a/b/:y'],
    ['GET', '/V1/a/:x/:y'],
    ['GET', '/V1/a/b/c'],
    ['POST', '/V1/a/:x/c'],
  ] as const) {
    registry.add(route(method, url), `${method} ${url}`);
  }

  const target = (method: string, path: string) => registry.match(method, path)?.route.target ?? null;

  it('should prefer a literal at the first segment where two routes differ', () => {
    expect(target('GET', '/V1/a/b/c')).to.equal('GET /V1/a/b/c');
    expect(target('GET', '/V1/a/b/z')).to.equal('GET /V1/a/b/:y');
    expect(target('GET', '/V1/a/z/c')).to.equal('GET /V1/a/:x/c');
    expect(target('GET', '/V1/a/z/z')).to.equal('GET /V1/a/:x/:y');
  });

  it('should match the method case-insensitively and only that method', () => {
    expect(target('post', '/V1/a/b/c')).to.equal('POST /V1/a/:x/c');
    expect(target('PUT', '/V1/a/b/c')).to.equal(null);
    expect(target('POST', '/V1/a/b/z')).to.equal(null);
  });

  it('should answer the path parameters by name, decoded', () => {
    expect(registry.match('GET', '/V1/a/%C3%A9t%C3%A9/q%2Fr')!.pathParams).to.deep.equal({ x: 'été', y: 'q/r' });
  });

  it("should decode + as a space and %2B as a plus, as PHP urldecode does in Magento's router", () => {
    expect(registry.match('GET', '/V1/a/VIT+D3/A%2BB')!.pathParams).to.deep.equal({ x: 'VIT D3', y: 'A+B' });
  });

  it('should need the same number of segments', () => {
    expect(target('GET', '/V1/a/b')).to.equal(null);
    expect(target('GET', '/V1/a/b/c/d')).to.equal(null);
  });
});
