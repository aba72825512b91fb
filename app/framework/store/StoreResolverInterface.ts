import Joi from 'joi';
import { defineContract } from '../contract/Contract.js';
import type { Store } from '../context/RequestContext.js';

/**
 * How the front controller turns the `{scope}` path segment into a store. The store module
 * serves it (a <preference> in its di.xml); without one, only `default` and `all` exist.
 */
export interface StoreResolverInterface {
  /** The active store with this code, or null. */
  getStoreByCode(code: string): Promise<Store | null>;
  /** The store `/rest/V1/...` means. */
  getDefaultStore(): Promise<Store>;
}

export const StoreResolverInterface = defineContract<StoreResolverInterface>(
  'Framework\\Store\\StoreResolverInterface',
  {
    getStoreByCode: { params: [{ name: 'code', schema: Joi.string().required() }] },
    getDefaultStore: { params: [] },
  },
);
