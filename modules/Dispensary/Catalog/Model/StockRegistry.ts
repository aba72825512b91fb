import { inject, injectable, NoSuchEntityException } from '#framework';
import type { StockItemInterface } from '../Api/Data/StockItemInterface.js';
import { ProductRepositoryInterface } from '../Api/ProductRepositoryInterface.js';
import type { StockItemInput, StockRegistryInterface } from '../Api/StockRegistryInterface.js';

/** Stock items come with their products (one default stock): read through the product repository. */
@injectable()
export class StockRegistry implements StockRegistryInterface {
  constructor(@inject(ProductRepositoryInterface) private readonly products: ProductRepositoryInterface) {}

  async getStockItemBySku(productSku: string): Promise<StockItemInterface> {
    return (await this.product(productSku)).extension_attributes.stock_item;
  }

  async updateStockItemBySku(productSku: string, stockItem: StockItemInput): Promise<number> {
    await this.product(productSku); // 404 for an unknown sku (update would ask for a name)
    const { qty, is_in_stock } = stockItem;
    const product = await this.products.update(productSku, {
      extension_attributes: { stock_item: { qty, is_in_stock } },
    });
    return product.extension_attributes.stock_item.item_id;
  }

  /** Magento's StockRegistryProvider::resolveProductId: its own 404 message, the sku as a positional parameter. */
  private async product(productSku: string) {
    try {
      return await this.products.get(productSku);
    } catch (error) {
      if (error instanceof NoSuchEntityException)
        throw new NoSuchEntityException(STOCK_PRODUCT_NOT_FOUND, [productSku]);
      throw error;
    }
  }
}

export const STOCK_PRODUCT_NOT_FOUND = 'The Product with the "%1" SKU doesn\'t exist.';
