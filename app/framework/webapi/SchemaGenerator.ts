/**
 * `GET /rest/<scope>/schema`: every route, described from the same contract descriptions that
 * drive input mapping and validation, in Magento's Swagger 2.0 shape. Parameter schemas are JSON
 * Schema converted from the joi schemas (joi-to-json), so an alternative (qty as an integer or a
 * digit string) appears as `anyOf`.
 */
import joiToJson from 'joi-to-json';
import type { MethodSpec } from '../contract/Contract.js';
import type { RouteDefinition } from '../config/WebapiConfig.js';
import { dataInterfaceName, type ExtensionAttributesProcessor } from '../extension/ExtensionAttributes.js';
import { toSnakeCase } from './naming.js';
import { searchCriteriaFields } from '../api/search/searchCriteriaParameter.js';
import { searchCriteriaQueryParameters } from '../api/search/searchCriteriaSchema.js';
import { bulkUrl, hasAsyncForm } from './AsyncController.js';

type JsonObject = Record<string, unknown>;

const ERROR_RESPONSE = {
  type: 'object',
  description: "Magento's REST error body",
  properties: {
    message: { type: 'string', description: 'Phrase with %placeholders' },
    parameters: { type: 'object', description: 'Values of the placeholders' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { message: { type: 'string' }, parameters: { type: 'object' } } },
    },
    trace: { type: 'string', description: 'Developer mode only' },
  },
  required: ['message'],
};

/**
 * Swagger 2.0 cannot name OAuth 1.0a, so it is an apiKey on the same header with a description and
 * an `x-oauth1` extension saying how to sign (the integration module's README has the details).
 */
const SECURITY_DEFINITIONS = {
  Bearer: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'Bearer <token>: an integration token (integration:token:create) or an admin token (POST /V1/integration/admin/token)',
  },
  OAuth1: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'OAuth 1.0a (RFC 5849), signed in the header: OAuth oauth_consumer_key, oauth_token, oauth_signature_method ' +
      '(HMAC-SHA256 or HMAC-SHA1), oauth_timestamp, oauth_nonce, oauth_version="1.0", oauth_signature. The base string ' +
      'covers the method, the URL called (scheme, host, non-default port, path) and the query parameters; a JSON body is not signed. ' +
      'Credentials come from integration:create.',
    'x-oauth1': {
      signatureMethods: ['HMAC-SHA256', 'HMAC-SHA1'],
      parameterTransmission: 'header',
      credentials: ['consumer_key', 'consumer_secret', 'access_token', 'access_token_secret'],
      timestampFutureToleranceSeconds: 600,
    },
  },
};

function jsonSchema(spec: MethodSpec['params'][number]): JsonObject {
  try {
    // joi-to-json is CommonJS: its function is the module itself.
    const parse = joiToJson as unknown as (schema: unknown, mode: string) => JsonObject;
    return parse(spec.schema, 'open-api');
  } catch {
    return { description: 'see the contract' };
  }
}

/** The answer's schema where the contract names the data interface it returns (with its extension attributes). */
function successResponse(spec: MethodSpec, extensionAttributes: ExtensionAttributesProcessor | undefined): JsonObject {
  const returns = dataInterfaceName(spec.returns);
  if (!returns || !extensionAttributes) return { description: '200 Success.' };
  return { description: '200 Success.', schema: extensionAttributes.describeOutput(returns) };
}

function operationId(route: RouteDefinition): string {
  const contract = route.serviceClass
    .split('\\')
    .pop()!
    .replace(/Interface$/, '');
  return `${contract.charAt(0).toLowerCase()}${contract.slice(1)}${route.serviceMethod.charAt(0).toUpperCase()}${route.serviceMethod.slice(1)}${route.method}`;
}

export function generateSchema(
  routes: ReadonlyMap<RouteDefinition, MethodSpec>,
  scopeCode: string,
  extensionAttributes?: ExtensionAttributesProcessor,
): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const tags = new Set<string>();
  for (const [route, spec] of routes) {
    const pathParams = new Set(
      route.url
        .split('/')
        .filter((s) => s.startsWith(':'))
        .map((s) => s.slice(1)),
    );
    const url = route.url.replace(/:(\w+)/g, '{$1}');
    const tag = route.serviceClass
      .split('\\')
      .pop()!
      .replace(/Interface$/, '');
    tags.add(tag);
    const parameters: JsonObject[] = [];
    const bodyProperties: Record<string, JsonObject> = {};
    const bodyRequired: string[] = [];
    for (const param of spec.params) {
      const snake = toSnakeCase(param.name);
      const required = param.schema.$_getFlag('presence') === 'required';
      if (pathParams.has(param.name) || pathParams.has(snake)) {
        const name = pathParams.has(param.name) ? param.name : snake;
        parameters.push({ name, in: 'path', type: 'string', required: true });
      } else if ((route.method === 'GET' || route.method === 'DELETE') && searchCriteriaFields(param.schema)) {
        parameters.push(...searchCriteriaQueryParameters(searchCriteriaFields(param.schema)!));
      } else if (route.method === 'GET' || route.method === 'DELETE') {
        for (const name of [snake, ...(param.aliases ?? [])]) {
          parameters.push({ name, in: 'query', required: required && name === snake, 'x-schema': jsonSchema(param) });
        }
      } else {
        bodyProperties[snake] = jsonSchema(param);
        if (required) bodyRequired.push(snake);
      }
    }
    // A placeholder the method takes no parameter for (Magento's stockItems/:itemId) must still be
    // declared: Swagger 2.0 requires it, and Swagger UI would otherwise send "{itemId}" literally.
    for (const name of pathParams) {
      if (!parameters.some((p) => p.in === 'path' && p.name === name)) {
        parameters.push({ name, in: 'path', type: 'string', required: true });
      }
    }
    if (Object.keys(bodyProperties).length) {
      parameters.push({
        name: `${operationId(route)}Body`,
        in: 'body',
        schema: {
          type: 'object',
          properties: bodyProperties,
          ...(bodyRequired.length ? { required: bodyRequired } : {}),
        },
      });
    }
    paths[url] ??= {};
    paths[url]![route.method.toLowerCase()] = {
      tags: [tag],
      description: spec.description ?? `${route.serviceClass}::${route.serviceMethod}`,
      operationId: operationId(route),
      consumes: ['application/json'],
      produces: ['application/json'],
      parameters,
      'x-service': `${route.serviceClass}::${route.serviceMethod}`,
      'x-resources': route.resources,
      // An anonymous route needs no credentials (the token route itself).
      ...(route.resources.includes('anonymous') ? { security: [] } : {}),
      responses: {
        200: successResponse(spec, extensionAttributes),
        400: { description: '400 Bad Request', schema: { $ref: '#/definitions/error-response' } },
        401: { description: '401 Unauthorized', schema: { $ref: '#/definitions/error-response' } },
        404: { description: '404 Not Found', schema: { $ref: '#/definitions/error-response' } },
        default: { description: 'Unexpected error', schema: { $ref: '#/definitions/error-response' } },
      },
    };
  }
  return {
    swagger: '2.0',
    info: { version: 'V1', title: 'Dispensary REST API' },
    basePath: `/rest/${scopeCode}`,
    schemes: ['http', 'https'],
    tags: [...tags].sort().map((name) => ({ name })),
    securityDefinitions: SECURITY_DEFINITIONS,
    // Either scheme (a list of alternatives in Swagger 2.0).
    security: [{ Bearer: [] }, { OAuth1: [] }],
    paths,
    definitions: { 'error-response': ERROR_RESPONSE },
  };
}

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
