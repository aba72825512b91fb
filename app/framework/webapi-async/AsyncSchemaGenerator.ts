/**
 * The Swagger document of the async forms (`GET /rest/<scope>/async/schema`), from the synchronous
 * document of the routes that have them (SchemaGenerator.ts).
 */
import type { RouteDefinition } from '../config/WebapiConfig.js';
import type { MethodSpec } from '../contract/Contract.js';
import type { ExtensionAttributesProcessor } from '../extension/ExtensionAttributes.js';
import { generateSchema } from '../webapi/SchemaGenerator.js';
import { bulkUrl, hasAsyncForm } from './AsynchronousRequestProcessor.js';

type JsonObject = Record<string, unknown>;

const ASYNC_RESPONSE = {
  type: 'object',
  description: "Accepted: the bulk and its operations (Magento's AsyncResponseInterface)",
  properties: {
    bulk_uuid: { type: 'string' },
    request_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          data_hash: { type: 'string' },
          status: { type: 'string', enum: ['accepted', 'rejected'] },
          error_message: { type: 'string' },
          error_code: { type: 'integer' },
        },
        required: ['id', 'status'],
      },
    },
    errors: { type: 'boolean' },
  },
  required: ['bulk_uuid', 'request_items', 'errors'],
};

/**
 * `GET /rest/<scope>/async/schema` (Magento's AsynchronousSchemaRequestProcessor): each route with
 * async forms twice, as `/async/V1/...` (the route's own body) and `/async/bulk/V1/...` (path
 * parameters spelled `by<Param>`, a JSON array of the body plus the path parameters), each answering
 * 202 with the bulk.
 */
export function generateAsyncSchema(
  routes: ReadonlyMap<RouteDefinition, MethodSpec>,
  scopeCode: string,
  extensionAttributes?: ExtensionAttributesProcessor,
): JsonObject {
  const asyncRoutes = new Map([...routes].filter(([route]) => hasAsyncForm(route)));
  const sync = generateSchema(asyncRoutes, scopeCode, extensionAttributes);
  const syncPaths = sync.paths as Record<string, Record<string, JsonObject>>;
  const paths: Record<string, JsonObject> = {};
  const responses = {
    202: { description: '202 Accepted.', schema: { $ref: '#/definitions/async-response' } },
    400: { description: '400 Bad Request', schema: { $ref: '#/definitions/error-response' } },
    401: { description: '401 Unauthorized', schema: { $ref: '#/definitions/error-response' } },
    default: { description: 'Unexpected error', schema: { $ref: '#/definitions/error-response' } },
  };
  for (const route of asyncRoutes.keys()) {
    const method = route.method.toLowerCase();
    const operation = syncPaths[route.url.replace(/:(\w+)/g, '{$1}')]![method]!;
    const parameters = operation.parameters as JsonObject[];
    (paths[`/async${route.url.replace(/:(\w+)/g, '{$1}')}`] ??= {})[method] = {
      ...operation,
      operationId: `${String(operation.operationId)}Async`,
      responses,
    };
    // Bulk: no path parameters; one array whose elements carry them beside the body's fields.
    const body = parameters.find((p) => p.in === 'body')?.schema as JsonObject | undefined;
    const properties: Record<string, JsonObject> = { ...((body?.properties as Record<string, JsonObject>) ?? {}) };
    const required = [...((body?.required as string[]) ?? [])];
    for (const param of parameters.filter((p) => p.in === 'path')) {
      properties[String(param.name)] = { type: 'string' };
      required.push(String(param.name));
    }
    (paths[`/async/bulk${bulkUrl(route.url)}`] ??= {})[method] = {
      ...operation,
      operationId: `${String(operation.operationId)}Bulk`,
      parameters: [
        {
          name: `${String(operation.operationId)}BulkBody`,
          in: 'body',
          schema: {
            type: 'array',
            minItems: 1,
            items: { type: 'object', properties, ...(required.length ? { required } : {}) },
          },
        },
      ],
      responses,
    };
  }
  return {
    ...sync,
    info: { version: 'V1', title: 'Dispensary REST API (asynchronous and bulk)' },
    paths,
    definitions: { ...(sync.definitions as JsonObject), 'async-response': ASYNC_RESPONSE },
  };
}
