import { inject, injectable } from '#framework';
import type { StockItemInterface } from '../Api/Data/StockItemInterface.js';
import { ProductRepositoryInterface } from '../Api/ProductRepositoryInterface.js';
import type { StockRegistryInterface } from '../Api/StockRegistryInterface.js';

/** Stock items come with their products (one default stock): read through the product repository. */
@injectable()
export class StockRegistry implements StockRegistryInterface {
  constructor(@inject(ProductRepositoryInterface) private readonly products: ProductRepositoryInterface) {}

  async getStockItemBySku(productSku: string): Promise<StockItemInterface> {
    return (await this.products.get(productSku)).extension_attributes.stock_item;
  }
}
