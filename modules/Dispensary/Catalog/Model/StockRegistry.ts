import { inject, injectable } from '#framework';
import type { StockItemInterface } from '../Api/Data/StockItemInterface.js';
import { ProductRepositoryInterface } from '../Api/ProductRepositoryInterface.js';
import type { StockItemInput, StockRegistryInterface } from '../Api/StockRegistryInterface.js';

/** Stock items come with their products (one default stock): read through the product repository. */
@injectable()
export class StockRegistry implements StockRegistryInterface {
  constructor(@inject(ProductRepositoryInterface) private readonly products: ProductRepositoryInterface) {}

  async getStockItemBySku(productSku: string): Promise<StockItemInterface> {
    return (await this.products.get(productSku)).extension_attributes.stock_item;
  }

  async updateStockItemBySku(productSku: string, stockItem: StockItemInput): Promise<number> {
    await this.products.get(productSku); // 404 for an unknown sku (update would ask for a name)
    const { qty, is_in_stock } = stockItem;
    const product = await this.products.update(productSku, { extension_attributes: { stock_item: { qty, is_in_stock } } });
    return product.extension_attributes.stock_item.item_id;
  }
}
