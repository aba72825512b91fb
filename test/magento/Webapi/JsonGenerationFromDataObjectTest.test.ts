/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/JsonGenerationFromDataObjectTest.php
 * on Magento's TestModule5: `GET /rest/<store>/schema?services=...`. As Magento's
 * assertRecursiveArray, every expected key must be present with its value and extra keys are
 * allowed (lists are compared by index). Not compared: `info.version` and `info.title` (Magento
 * gives its product version and name; this service gives its own), which are checked to be there.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../support.js';

function assertRecursive(expected: unknown, actual: unknown, where = ''): void {
  if (expected !== null && typeof expected === 'object') {
    expect(actual, `${where} is not an object`).to.be.an(Array.isArray(expected) ? 'array' : 'object');
    for (const [key, value] of Object.entries(expected)) {
      expect(actual as object, `Schema does not contain '${where}.${key}' section.`).to.have.property(key);
      assertRecursive(value, (actual as Record<string, unknown>)[key], `${where}.${key}`);
    }
  } else expect(actual, `'${where}' section content is invalid.`).to.deep.equal(expected);
}

const ERROR_REF = { $ref: '#/definitions/error-response' };

describe('Magento Webapi/JsonGenerationFromDataObjectTest.php (TestModule5)', () => {
  const m = magentoTestModulesApp();

  const common = (host: string) => ({ swagger: '2.0', host, basePath: '/rest/default' });

  it('testMultiServiceRetrieval', async () => {
    const res = await m.call(
      'get',
      '/schema?services=testModule5AllSoapAndRestV1,testModule5AllSoapAndRestV2',
      undefined,
      'default',
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.info).to.have.keys('version', 'title');
    assertRecursive(
      {
        ...common(new URL(res.request.url).host),
        tags: [
          { name: 'testModule5AllSoapAndRestV1', description: 'Both SOAP and REST Version ONE' },
          { name: 'testModule5AllSoapAndRestV2', description: 'Both SOAP and REST Version TWO' },
        ],
        paths: {
          '/V1/TestModule5/{parentId}/nestedResource/{entityId}': {
            put: {
              tags: ['testModule5AllSoapAndRestV1'],
              description: 'Update existing item.',
              operationId: 'testModule5AllSoapAndRestV1NestedUpdatePut',
              parameters: [
                { name: 'parentId', in: 'path', type: 'string', required: true },
                { name: 'entityId', in: 'path', type: 'string', required: true },
                {
                  name: 'testModule5AllSoapAndRestV1NestedUpdatePutBody',
                  in: 'body',
                  schema: {
                    required: ['entityItem'],
                    properties: { entityItem: { $ref: '#/definitions/test-module5-v1-entity-all-soap-and-rest' } },
                    type: 'object',
                  },
                },
              ],
              responses: {
                200: {
                  description: '200 Success.',
                  schema: { $ref: '#/definitions/test-module5-v1-entity-all-soap-and-rest' },
                },
                401: { description: '401 Unauthorized', schema: ERROR_REF },
                default: { description: 'Unexpected error', schema: ERROR_REF },
              },
            },
          },
        },
        definitions: {
          'framework-attribute-interface': {
            type: 'object',
            description: 'Interface for custom attribute value.',
            properties: {
              attribute_code: { type: 'string', description: 'Attribute code' },
              value: { type: 'string', description: 'Attribute value' },
            },
            required: ['attribute_code', 'value'],
          },
          'test-module5-v1-entity-all-soap-and-rest': {
            type: 'object',
            description: 'Some Data Object short description. Data Object long multi line description.',
            properties: {
              entity_id: { type: 'integer', description: 'Item ID' },
              name: { type: 'string', description: 'Item name' },
              enabled: { type: 'boolean', description: 'If entity is enabled' },
              orders: { type: 'boolean', description: 'If current entity has a property defined' },
              custom_attributes: {
                type: 'array',
                description: 'Custom attributes values.',
                items: { $ref: '#/definitions/framework-attribute-interface' },
              },
            },
            required: ['entity_id', 'enabled', 'orders'],
          },
        },
      },
      res.body,
    );
  });

  it("testSingleServiceRetrieval: only that service's paths, tags and definitions", async () => {
    const res = await m.call('get', '/schema?services=testModule5AllSoapAndRestV2', undefined, 'default');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    assertRecursive(
      {
        ...common(new URL(res.request.url).host),
        tags: [{ name: 'testModule5AllSoapAndRestV2', description: 'Both SOAP and REST Version TWO' }],
        paths: {
          '/V2/TestModule5/{id}': {
            delete: {
              tags: ['testModule5AllSoapAndRestV2'],
              description: 'Delete existing item.',
              operationId: 'testModule5AllSoapAndRestV2DeleteDelete',
              parameters: [{ name: 'id', in: 'path', type: 'string', required: true }],
              responses: {
                200: {
                  description: '200 Success.',
                  schema: { $ref: '#/definitions/test-module5-v2-entity-all-soap-and-rest' },
                },
                401: { description: '401 Unauthorized', schema: ERROR_REF },
                default: { description: 'Unexpected error', schema: ERROR_REF },
              },
            },
          },
        },
        definitions: {
          'test-module5-v2-entity-all-soap-and-rest': {
            type: 'object',
            description: 'Some Data Object short description. Data Object long multi line description.',
            properties: { price: { type: 'integer' } },
            required: ['price'],
          },
        },
      },
      res.body,
    );
    expect(res.body.tags).to.have.length(1);
    expect(Object.keys(res.body.paths).every((path) => path.startsWith('/V2/TestModule5'))).to.equal(true);
    expect(res.body.definitions).to.not.have.property('test-module5-v1-entity-all-soap-and-rest');
  });

  it('testInvalidRestUrlNoServices: /rest/<store> alone', async () => {
    const res = await m.call('get', '', undefined, 'default');
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('Specified request cannot be processed.');
  });

  it('testInvalidRestUrlInvalidServiceName', async () => {
    for (const services of ['invalidServiceName', 'unknownServiceV1']) {
      const res = await m.call('get', `/schema?services=${services}`, undefined, 'default');
      expect(res.status, services).to.equal(400);
      expect(res.body.message).to.equal('Incorrect format of request URI or Requested services are missing.');
    }
  });
});
