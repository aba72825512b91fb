/**
 * `GET /rest/<scope>/schema` (Magento's SchemaRequestProcessor, `syncSchema` in the pool): the
 * Swagger document of the services asked for (`?services=name1V1,name2V2`; all by default).
 */
import { traceOf } from '../observability/RequestTrace.js';
import type { RequestProcessorInterface, RestRequest } from './RequestProcessorInterface.js';
import { requestedServices } from './SchemaGenerator.js';

/** The document for a scope code, the services asked for (null: all) and the host asked on. */
export type SchemaSource = (scopeCode: string, services: readonly string[] | null, host: string | undefined) => unknown;

export class SchemaRequestProcessor implements RequestProcessorInterface {
  constructor(private readonly schema: SchemaSource) {}

  canProcess(request: RestRequest): boolean {
    return request.routePath === '/schema' && request.method === 'GET';
  }

  async process({ http, scopeCode }: RestRequest): Promise<unknown> {
    traceOf(http.res!).route = '/schema';
    return this.schema(scopeCode ?? 'default', requestedServices(http.query.services), http.get('host'));
  }
}
