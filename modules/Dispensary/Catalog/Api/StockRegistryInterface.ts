import { defineContract, Joi } from '#framework';
import type { StockItemInterface } from './Data/StockItemInterface.js';

/** Magento's `CatalogInventory\Api\StockRegistryInterface`, the part REST clients read. */
export interface StockRegistryInterface {
  /** The product's stock item; 404 when the sku names no product. */
  getStockItemBySku(productSku: string): Promise<StockItemInterface>;
}

export const StockRegistryInterface = defineContract<StockRegistryInterface>('Dispensary\\Catalog\\Api\\StockRegistryInterface', {
  getStockItemBySku: {
    params: [{ name: 'productSku', schema: Joi.string().trim().min(1).max(64).required() }],
    description: 'The stock item of a product',
  },
});
