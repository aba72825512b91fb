import { defineContract, Joi } from '#framework';
import type { StoreConfigInterface } from './Data/StoreConfigInterface.js';

export interface StoreConfigManagerInterface {
  /** The configuration of each store the caller may use, or only of those named (unknown codes are left out, as Magento does). */
  getStoreConfigs(storeCodes?: string[]): Promise<StoreConfigInterface[]>;
  /** Sets a configuration path for one store, or for every store (the default scope) when storeCode is null. */
  saveValue(path: string, value: string, storeCode: string | null): Promise<void>;
}

export const StoreConfigManagerInterface = defineContract<StoreConfigManagerInterface>(
  'Dispensary\\Store\\Api\\StoreConfigManagerInterface',
  {
    getStoreConfigs: {
      params: [
        {
          name: 'storeCodes',
          schema: Joi.array().items(Joi.string().max(64)).single().max(1000),
          description: 'store codes, e.g. ?storeCodes[]=default',
        },
      ],
      description:
        'Configuration (locale, currencies, timezone, weight unit, base URLs) of the store views visible to the caller',
    },
    saveValue: {
      params: [
        { name: 'path', schema: Joi.string().required() },
        { name: 'value', schema: Joi.string().allow('').required() },
        { name: 'storeCode', schema: Joi.string().allow(null).required() },
      ],
    },
  },
);
