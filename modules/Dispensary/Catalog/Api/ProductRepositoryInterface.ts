import { defineContract, Joi } from '#framework';
import type { ProductInput, ProductInterface } from './Data/ProductInterface.js';

export interface ProductRepositoryInterface {
  /** Creates the product, or updates the one with the same sku (Magento's save semantics). Global: needs an all-stores caller. */
  save(product: ProductInput): Promise<ProductInterface>;
  /** By sku, case-insensitively after trimming; NoSuchEntityException (404) when missing. */
  get(sku: string): Promise<ProductInterface>;
  /** Products found among these skus, keyed by skuKey(sku); missing ones are absent. One query. */
  getBySkus(skus: readonly string[]): Promise<Map<string, ProductInterface>>;
}

export const ProductRepositoryInterface = defineContract<ProductRepositoryInterface>('Dispensary\\Catalog\\Api\\ProductRepositoryInterface', {
  save: {
    params: [
      {
        name: 'product',
        schema: Joi.object({
          sku: Joi.string().trim().min(1).max(64).required(),
          name: Joi.string().trim().min(1).max(255).required(),
          price: Joi.number().min(0).max(1e12).strict(false),
          status: Joi.number().valid(1, 2),
          extension_attributes: Joi.object({
            stock_item: Joi.object({ is_in_stock: Joi.boolean() }).unknown(true),
          }).unknown(true),
          id: Joi.any().strip(),
        }).required(),
      },
    ],
  },
  get: { params: [{ name: 'sku', schema: Joi.string().trim().min(1).max(64).required() }] },
  getBySkus: { params: [{ name: 'skus', schema: Joi.array().items(Joi.string()).required() }] },
});
