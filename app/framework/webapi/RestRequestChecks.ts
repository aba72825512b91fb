/**
 * The checks of a request that calls a route, made alike by the synchronous and the async
 * processors: the caller (AuthorizationInterface, before the body is read, as in Magento), the
 * JSON body (JsonBodyReader: the bulk limit for a bulk's array) and webapi.xml's placeholders.
 */
import type express from 'express';
import { GUEST, type Caller, type Store } from '../context/RequestContext.js';
import { AuthorizationException } from '../exception/LocalizedException.js';
import type { AuthorizationInterface } from './AuthorizationInterface.js';
import { JsonBodyReader, type JsonBodyOptions } from './JsonBodyReader.js';
import type { RequestChecks, RouteAccess } from './RequestProcessorInterface.js';

export interface RestRequestChecksOptions extends JsonBodyOptions {
  readonly authorization: () => AuthorizationInterface | null;
  /** The largest body of `/async/bulk/...` (a JSON array of operations); `bodyLimit` when unset. */
  readonly bulkBodyLimit?: number;
}

const PUBLIC_RESOURCES = new Set(['anonymous']);

export class RestRequestChecks implements RequestChecks {
  private readonly bodyReader: JsonBodyReader;
  private readonly bulkBodyReader: JsonBodyReader;

  constructor(private readonly options: RestRequestChecksOptions) {
    this.bodyReader = new JsonBodyReader(options);
    this.bulkBodyReader = new JsonBodyReader({ ...options, bodyLimit: options.bulkBodyLimit ?? options.bodyLimit });
  }

  async authorize(req: express.Request, route: RouteAccess, store: Store, defaultScope: boolean): Promise<Caller> {
    const { resources } = route;
    if (resources.some((r) => PUBLIC_RESOURCES.has(r))) return GUEST;
    const authorization = this.options.authorization();
    if (!authorization) throw AuthorizationException.forResources(resources);
    const [path = '', rawQuery = ''] = splitOnce(req.originalUrl, '?');
    // Scheme and host only when a hook asks (OAuth signatures): Express works them out from proxy headers.
    const http = {
      method: req.method.toUpperCase(),
      get scheme() {
        return req.protocol;
      },
      get host() {
        return req.host;
      },
      path,
      rawQuery,
      headers: req.headers,
    };
    return authorization.authorize({
      authorization: req.headers.authorization,
      resources,
      store,
      defaultScope,
      ...(route.scope === 'global' ? { globalScope: true } : {}),
      http,
    });
  }

  readBody(req: express.Request, acceptArray = false): Promise<Record<string, unknown> | undefined> {
    // Only a bulk request's body is an array; its limit is the bulk one (imports of thousands of operations).
    return acceptArray ? this.bulkBodyReader.read(req, true) : this.bodyReader.read(req);
  }

  placeholders(store: Store, caller: Caller): Record<string, string | number | null> {
    // Magento's %customer_id% is the customer's id, and null for every other caller (integration, admin, guest).
    const customerId = (caller.type as string) === 'customer' ? caller.id : null;
    return {
      store_id: store.id,
      store_code: store.code,
      caller_id: caller.id,
      customer_id: customerId,
      user_id: caller.id,
    };
  }
}

function splitOnce(value: string, separator: string): [string, string] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
}
