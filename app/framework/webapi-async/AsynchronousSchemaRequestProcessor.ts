/**
 * `GET /rest/<scope>/async/schema` (Magento's AsynchronousSchemaRequestProcessor, `asyncSchema` in
 * the request processor pool): the Swagger document of the async forms, while a module records
 * bulks (without one, the path goes on to the `async` processor, which answers 404).
 */
import type { BulkManagementInterface } from '../bulk/BulkManagementInterface.js';
import { traceOf } from '../observability/RequestTrace.js';
import type { RequestProcessorInterface, RestRequest } from '../webapi/RequestProcessorInterface.js';

export class AsynchronousSchemaRequestProcessor implements RequestProcessorInterface {
  constructor(
    /** The document for a scope code. */
    private readonly schema: (scopeCode: string) => unknown,
    private readonly bulks: () => BulkManagementInterface | null,
  ) {}

  canProcess(request: RestRequest): boolean {
    return request.routePath === '/async/schema' && request.method === 'GET' && this.bulks() !== null;
  }

  async process({ http, scopeCode }: RestRequest): Promise<unknown> {
    traceOf(http.res!).route = '/async/schema';
    return this.schema(scopeCode ?? 'default');
  }
}
