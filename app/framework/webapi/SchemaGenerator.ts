/**
 * `GET /rest/<scope>/schema`: every route, described from the same contract descriptions that
 * drive input mapping and validation, in Magento's Swagger 2.0 shape. Parameter schemas are JSON
 * Schema converted from the joi schemas (joi-to-json), so an alternative (qty as an integer or a
 * digit string) appears as `anyOf`.
 */
import { createRequire } from 'node:module';
import type Joi from 'joi';
import { ATTRIBUTE_INTERFACE_DEFINITION } from '../api/CustomAttributes.js';
import type { MethodSpec } from '../contract/Contract.js';
import { isDataInterface, type DataInterface } from '../contract/DataInterface.js';
import { WebapiException } from './WebapiException.js';
import type { RouteDefinition } from '../config/WebapiConfig.js';
import { dataInterfaceName, type ExtensionAttributesProcessor } from '../extension/ExtensionAttributes.js';
import { toSnakeCase } from './naming.js';
import { searchCriteriaFields } from '../api/search/searchCriteriaParameter.js';
import { searchCriteriaQueryParameters } from '../api/search/searchCriteriaSchema.js';

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

const require = createRequire(import.meta.url);

function joiJson(schema: Joi.Schema): JsonObject {
  try {
    // joi-to-json is CommonJS: its function is the module itself. Loaded by the first schema asked
    // for (GET /rest/<store>/schema, the Swagger page), never by a process that serves none.
    const parse = require('joi-to-json') as (schema: unknown, mode: string) => JsonObject;
    return parse(schema, 'open-api');
  } catch {
    return { description: 'see the contract' };
  }
}

function jsonSchema(spec: MethodSpec['params'][number]): JsonObject {
  return joiJson(spec.schema);
}

const ucfirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Magento's service name (Webapi\Model\ServiceMetadata::getServiceName): the vendor (left out when
 * it is Magento), the module (left out when the service's own name repeats it), the service's
 * name without `Interface`, and the version (from `Service\V1` in the name, else from the URL):
 * `Magento\TestModule5\Service\V1\AllSoapAndRestInterface` is `testModule5AllSoapAndRestV1`,
 * `Magento\Catalog\Api\ProductRepositoryInterface` on `/V1/products` is `catalogProductRepositoryV1`.
 */
export function serviceName(serviceClass: string, url: string): string {
  const [vendor = '', module = '', ...rest] = serviceClass.replace(/^\\/, '').split('\\');
  let version: string;
  if (rest[0] === 'Service' && /^V\d+$/.test(rest[1] ?? '')) {
    version = rest[1]!;
    rest.splice(0, 2);
  } else {
    if (rest[0] === 'Api') rest.shift();
    version = /^\/(V\d+)(\/|$)/.exec(url)?.[1] ?? 'V1';
  }
  if (rest.length) rest[rest.length - 1] = rest[rest.length - 1]!.replace(/Interface$/, '');
  const name = `${vendor === 'Magento' ? '' : vendor}${rest[0] === module ? '' : module}${rest.join('')}`;
  return `${name.charAt(0).toLowerCase()}${name.slice(1)}${version}`;
}

/**
 * Magento's definition name of a data object (Reflection\TypeProcessor::translateTypeName, then
 * dash-separated lower case): `Magento\TestModule5\Service\V1\Entity\AllSoapAndRest` is
 * `test-module5-v1-entity-all-soap-and-rest`, `Magento\Framework\Api\AttributeInterface` is
 * `framework-attribute-interface`.
 */
export function definitionName(className: string): string {
  const match = /^\\?(.*)\\(.*)\\(Service|Api)\\(.*)$/.exec(className);
  let name: string;
  if (match) {
    const [, vendor = '', module = '', , rest = ''] = match;
    const parts = rest.split('\\');
    if (parts[0] === module) parts.shift();
    name = ucfirst(`${vendor === 'Magento' ? '' : vendor.replace(/\\/g, '')}${module}${parts.join('')}`);
  } else name = className.replace(/\\/g, '');
  return name.replace(/(.)([A-Z])/g, '$1-$2').toLowerCase();
}

const ATTRIBUTE_INTERFACE = 'framework-attribute-interface';

/** The data objects the routes carry and answer, and their Swagger definitions, made as they are referenced. */
class Definitions {
  readonly definitions: Record<string, JsonObject> = {};
  private readonly byName = new Map<string, DataInterface>();

  constructor(
    specs: Iterable<MethodSpec>,
    private readonly extensionAttributes: ExtensionAttributesProcessor | undefined,
  ) {
    for (const spec of specs) {
      for (const candidate of [spec.returns, ...spec.params.map((p) => p.dataInterface)])
        if (isDataInterface(candidate)) this.byName.set(candidate.name, candidate);
    }
  }

  /** `{$ref}` (or an array of them for `Name[]`) when the data interface describes its fields; else undefined. */
  reference(type: DataInterface | string | undefined): JsonObject | undefined {
    if (type === undefined) return undefined;
    const name = typeof type === 'string' ? type : type.name;
    const list = name.endsWith('[]');
    const data = typeof type === 'string' ? this.byName.get(name.replace(/\[\]$/, '')) : type;
    if (!data?.schema) return undefined;
    const ref = { $ref: `#/definitions/${this.define(data)}` };
    return list ? { type: 'array', items: ref } : ref;
  }

  private define(data: DataInterface): string {
    const key = definitionName(data.name);
    if (this.definitions[key]) return key;
    const definition: JsonObject = { type: 'object' };
    this.definitions[key] = definition; // before the fields: a data object may nest itself
    if (data.description) definition.description = data.description;
    const properties: Record<string, JsonObject> = {};
    const keys = (data.schema as unknown as { $_terms?: { keys?: { key: string; schema: Joi.Schema }[] } }).$_terms
      ?.keys;
    for (const { key: field, schema } of keys ?? []) {
      const nested = data.nested[field];
      const nestedData = nested ? this.byName.get(nested.replace(/\[\]$/, '')) : undefined;
      if (field === 'custom_attributes' && data.customAttributes) {
        this.definitions[ATTRIBUTE_INTERFACE] ??= ATTRIBUTE_INTERFACE_DEFINITION;
        properties[field] = {
          type: 'array',
          description: 'Custom attributes values.',
          items: { $ref: `#/definitions/${ATTRIBUTE_INTERFACE}` },
        };
      } else if (nestedData?.schema) properties[field] = this.reference(nested!)!;
      else properties[field] = joiJson(schema);
    }
    const extension = this.extensionAttributes?.describe(data.name);
    if (extension) properties.extension_attributes = extension;
    definition.properties = properties;
    if (data.required.length) definition.required = [...data.required];
    return key;
  }
}

/** The answer's schema: a definition where the data interface describes its fields, else its extension attributes. */
function successResponse(
  spec: MethodSpec,
  extensionAttributes: ExtensionAttributesProcessor | undefined,
  definitions: Definitions,
): JsonObject {
  const reference = definitions.reference(spec.returns);
  if (reference) return { description: '200 Success.', schema: reference };
  const returns = dataInterfaceName(spec.returns);
  if (!returns || !extensionAttributes) return { description: '200 Success.' };
  return { description: '200 Success.', schema: extensionAttributes.describeOutput(returns) };
}

/** Magento's operationId: the service name, the method and the HTTP method (`testModule5AllSoapAndRestV1NestedUpdatePut`). */
function operationId(route: RouteDefinition): string {
  return `${serviceName(route.serviceClass, route.url)}${ucfirst(route.serviceMethod)}${ucfirst(route.method.toLowerCase())}`;
}

const SERVICES_MISSING = 'Incorrect format of request URI or Requested services are missing.';

/** `?services=` as Magento's Webapi\Rest\Request::getRequestedServices reads it; null for every service. */
export function requestedServices(value: unknown): string[] | null {
  if (value === undefined || value === 'all') return null;
  if (typeof value !== 'string' || !/^[a-zA-Z\d]*V\d+(,[a-zA-Z\d]*V\d+)*$/.test(value)) {
    throw new WebapiException(400, SERVICES_MISSING);
  }
  return value.split(',');
}

export interface SchemaOptions {
  /** The services to describe (Magento's service names, `?services=`); every one when absent. */
  readonly services?: readonly string[] | null;
  /** Service class -> its description (the contract's), for the tags. */
  readonly describeService?: (serviceClass: string) => string | undefined;
}

export function generateSchema(
  allRoutes: ReadonlyMap<RouteDefinition, MethodSpec>,
  scopeCode: string,
  extensionAttributes?: ExtensionAttributesProcessor,
  options: SchemaOptions = {},
): JsonObject {
  let routes = allRoutes;
  if (options.services) {
    const wanted = new Set(options.services);
    routes = new Map([...allRoutes].filter(([route]) => wanted.has(serviceName(route.serviceClass, route.url))));
    const known = new Set([...routes.keys()].map((route) => serviceName(route.serviceClass, route.url)));
    // As Magento: a service it does not know is a request it cannot answer.
    if ([...wanted].some((name) => !known.has(name))) throw new WebapiException(400, SERVICES_MISSING);
  }
  const definitions = new Definitions(routes.values(), extensionAttributes);
  const paths: Record<string, JsonObject> = {};
  const tags = new Map<string, string | undefined>();
  for (const [route, spec] of routes) {
    const pathParams = new Set(
      route.url
        .split('/')
        .filter((s) => s.startsWith(':'))
        .map((s) => s.slice(1)),
    );
    const url = route.url.replace(/:(\w+)/g, '{$1}');
    const tag = serviceName(route.serviceClass, route.url);
    tags.set(tag, options.describeService?.(route.serviceClass));
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
        // Magento names body parameters as the method does (camelCase), a data object by its definition.
        bodyProperties[param.name] = definitions.reference(param.dataInterface) ?? jsonSchema(param);
        if (required) bodyRequired.push(param.name);
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
        200: successResponse(spec, extensionAttributes, definitions),
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
    tags: [...tags]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, description]) => (description ? { name, description } : { name })),
    securityDefinitions: SECURITY_DEFINITIONS,
    // Either scheme (a list of alternatives in Swagger 2.0).
    security: [{ Bearer: [] }, { OAuth1: [] }],
    paths,
    definitions: { 'error-response': ERROR_RESPONSE, ...definitions.definitions },
  };
}
