import { defineContract, Joi } from '#framework';
import { skuSchema } from './skuKey.js';
import { PRODUCT_STATUS_DISABLED, PRODUCT_STATUS_ENABLED, type ProductInput, type ProductInterface } from './Data/ProductInterface.js';

/** Magento product fields accepted on input and ignored. */
export const IGNORED_PRODUCT_FIELDS = [
  'id',
  'type_id',
  'attribute_set_id',
  'visibility',
  'weight',
  'created_at',
  'updated_at',
  'custom_attributes',
  'options',
  'media_gallery_entries',
  'tier_prices',
  'product_links',
] as const;

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
          sku: skuSchema.required(),
          name: Joi.string().trim().min(1).max(255).required(),
          price: Joi.number().min(0).max(1e12),
          // min/max rather than valid(): one error per bad value (valid() adds a second one for non-numbers).
          status: Joi.number().integer().min(PRODUCT_STATUS_ENABLED).max(PRODUCT_STATUS_DISABLED),
          extension_attributes: Joi.object({
            stock_item: Joi.object({ is_in_stock: Joi.boolean().truthy(1).falsy(0) }).unknown(true),
          }).unknown(true),
          // Fields a Magento client sends or reads back that this catalog subset does not keep:
          // accepted and ignored, so a product read from Magento can be posted here as it is.
          ...Object.fromEntries(IGNORED_PRODUCT_FIELDS.map((field) => [field, Joi.any().strip()])),
        }).required(),
      },
    ],
  },
  get: { params: [{ name: 'sku', schema: skuSchema.required() }] },
  getBySkus: { params: [{ name: 'skus', schema: Joi.array().items(Joi.string()).required() }] },
});
