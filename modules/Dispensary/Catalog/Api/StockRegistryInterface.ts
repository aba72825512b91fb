import { defineContract } from '#framework';
import type { StockItemInterface } from './Data/StockItemInterface.js';
import { stockItemInputSchema } from './ProductRepositoryInterface.js';
import { skuSchema } from './skuKey.js';

/** Magento's `CatalogInventory\Api\StockRegistryInterface`, the part REST clients read. */
export interface StockRegistryInterface {
  /** The product's stock item; 404 when the sku names no product. */
  getStockItemBySku(productSku: string): Promise<StockItemInterface>;
  /**
   * PUT /V1/products/:productSku/stockItems/:itemId: sets the product's qty and/or stock status
   * (Magento's other stock item fields are accepted and ignored, unknown ones are a 400); answers the item id. 404 for an
   * unknown sku. Needs an all-stores caller, like every catalog write.
   */
  updateStockItemBySku(productSku: string, stockItem: StockItemInput): Promise<number>;
}

export interface StockItemInput {
  qty?: number;
  is_in_stock?: boolean;
}

export const StockRegistryInterface = defineContract<StockRegistryInterface>(
  'Dispensary\\Catalog\\Api\\StockRegistryInterface',
  {
    getStockItemBySku: {
      params: [{ name: 'productSku', schema: skuSchema.required() }],
      description: 'The stock item of a product',
    },
    updateStockItemBySku: {
      params: [
        { name: 'productSku', schema: skuSchema.required() },
        {
          name: 'stockItem',
          schema: stockItemInputSchema().required(),
        },
      ],
      description: "Set a product's stock quantity and status; answers the stock item id",
    },
  },
);
