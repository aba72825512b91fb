import { defineContract, Joi, type Store } from '#framework';
import type { StoreInterface } from './Data/StoreInterface.js';

export interface StoreRepositoryInterface {
  /** The stores the caller may use: for an all-stores caller, Magento's admin store 0 first. */
  getList(): Promise<StoreInterface[]>;
  /** Creates a store; the code must be new and follow Magento's rule. */
  create(code: string, name: string): Promise<Store>;
  getStoreByCode(code: string): Promise<Store | null>;
  getDefaultStore(): Promise<Store>;
  getById(id: number): Promise<Store | null>;
}

export const STORE_CODE_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;

export const StoreRepositoryInterface = defineContract<StoreRepositoryInterface>(
  'Dispensary\\Store\\Api\\StoreRepositoryInterface',
  {
    getList: { params: [], description: 'Store views visible to the caller' },
    create: {
      params: [
        { name: 'code', schema: Joi.string().pattern(STORE_CODE_PATTERN).required() },
        { name: 'name', schema: Joi.string().trim().min(1).max(255).required() },
      ],
    },
    getStoreByCode: { params: [{ name: 'code', schema: Joi.string().required() }] },
    getDefaultStore: { params: [] },
    getById: { params: [{ name: 'id', schema: Joi.number().integer().required() }] },
  },
);
