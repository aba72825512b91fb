import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/** A store scope. Store id 0 is the admin scope `all`, which sees every store. */
export interface Store {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly websiteId: number;
  readonly storeGroupId: number;
  readonly isActive: boolean;
}

export const ADMIN_STORE: Store = Object.freeze({
  id: 0,
  code: 'admin',
  name: 'Admin',
  websiteId: 0,
  storeGroupId: 0,
  isActive: true,
});

/** Who is calling: supplied by the authorization hook (the integration module). */
export interface Caller {
  readonly type: 'integration' | 'admin' | 'guest';
  readonly id: number | null;
  readonly name: string;
  /** True when the caller may act for every store (all-stores integration token, admin token). */
  readonly allStores: boolean;
  /** Whether the caller holds an ACL resource (e.g. to see an extension attribute with <resources>); absent: none. */
  readonly allows?: (resource: string) => boolean;
}

export const GUEST: Caller = Object.freeze({ type: 'guest', id: null, name: 'guest', allStores: false });

export interface RequestContextData {
  readonly requestId: string;
  readonly store: Store;
  caller: Caller;
  /** The client's address: the socket's, or X-Forwarded-For's as far as TRUST_PROXY allows. */
  readonly clientAddress?: string;
  /** The unit of work's transaction, while one is open. */
  transaction?: Knex.Transaction;
  /** What afterCommit() queued in the open unit of work: run once it commits, dropped if it rolls back. */
  afterCommit?: (() => void)[];
}

/** A request's context, as guest; the client address is worked out on first use (only the admin login asks). */
export function newRequestContext(
  requestId: string,
  store: Store,
  clientAddress: () => string | undefined,
): RequestContextData {
  let address: { value: string | undefined } | undefined;
  return {
    requestId,
    store,
    caller: GUEST,
    get clientAddress() {
      return (address ??= { value: clientAddress() }).value;
    },
  };
}

/**
 * The request context travels with AsyncLocalStorage, so a service deep in a plugin chain can ask
 * for the current store or caller without every signature carrying them.
 */
export class RequestContext {
  private readonly storage = new AsyncLocalStorage<RequestContextData>();

  run<R>(data: RequestContextData, fn: () => R): R {
    return this.storage.run(data, fn);
  }

  /** Runs `fn` outside any request: work shared by several requests must not run in one's transaction. */
  outside<R>(fn: () => R): R {
    return this.storage.exit(fn);
  }

  /** The current context, or undefined outside a request (CLI, start-up). */
  current(): RequestContextData | undefined {
    return this.storage.getStore();
  }

  /** The current store; outside a request, the admin scope. */
  store(): Store {
    return this.storage.getStore()?.store ?? ADMIN_STORE;
  }

  caller(): Caller {
    return this.storage.getStore()?.caller ?? GUEST;
  }

  /** True when the current scope is `all` (store id 0) and so sees every store. */
  isAllStores(): boolean {
    return this.store().id === ADMIN_STORE.id;
  }
}

/** One per process: AsyncLocalStorage is process-wide anyway. */
export const requestContext = new RequestContext();
