import {
  defineContract,
  Joi,
  searchCriteriaParameter,
  type SearchCriteria,
  type SearchFields,
  type SearchResults,
} from '#framework';
import { skuSchema } from './skuKey.js';
import {
  PRODUCT_STATUS_DISABLED,
  PRODUCT_STATUS_ENABLED,
  type ProductInput,
  type ProductInterface,
} from './Data/ProductInterface.js';

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

/** What GET /V1/products filters and sorts by. */
export const PRODUCT_SEARCH_FIELDS: SearchFields = {
  entity_id: 'integer',
  sku: 'text',
  name: 'text',
  price: 'decimal',
  status: 'integer',
  created_at: 'timestamp',
  updated_at: 'timestamp',
};

export const MAX_STOCK_QTY = 99999999;

/** Magento's StockItemInterface fields this catalog does not store: accepted and ignored on input. */
const IGNORED_STOCK_ITEM_FIELDS = [
  'item_id',
  'product_id',
  'website_id',
  'stock_id',
  'is_qty_decimal',
  'show_default_notification_message',
  'use_config_min_qty',
  'min_qty',
  'use_config_min_sale_qty',
  'min_sale_qty',
  'use_config_max_sale_qty',
  'max_sale_qty',
  'use_config_backorders',
  'backorders',
  'use_config_notify_stock_qty',
  'notify_stock_qty',
  'use_config_qty_increments',
  'qty_increments',
  'use_config_enable_qty_inc',
  'enable_qty_increments',
  'use_config_manage_stock',
  'manage_stock',
  'low_stock_date',
  'is_decimal_divided',
  'stock_status_changed_auto',
  'extension_attributes',
];

/** A stock item on input: qty and status are stored; any field Magento does not have is a 400 (a typo is not dropped). */
export function stockItemInputSchema() {
  return Joi.object({
    is_in_stock: Joi.boolean().truthy(1).falsy(0),
    qty: Joi.number().min(-MAX_STOCK_QTY).max(MAX_STOCK_QTY),
    ...Object.fromEntries(IGNORED_STOCK_ITEM_FIELDS.map((field) => [field, Joi.any().strip()])),
  });
}

export interface ProductRepositoryInterface {
  /** Creates the product, or updates the one with the same sku (Magento's save semantics). Global: needs an all-stores caller. */
  save(product: ProductInput): Promise<ProductInterface>;
  /**
   * PUT /V1/products/:sku: Magento's save with the path's sku, which wins over one in the body.
   * Updates the fields given; creates the product when the sku is new (then `name` is required).
   */
  update(sku: string, product: ProductInput): Promise<ProductInterface>;
  /** By sku, case-insensitively after trimming; NoSuchEntityException (404) when missing. */
  get(sku: string): Promise<ProductInterface>;
  /** Removes the product (Magento's `deleteById(sku)`); true, or 404. Items that name it stay, out of stock. */
  deleteById(sku: string): Promise<boolean>;
  /** Products matching Magento search criteria (products are global: every scope sees all). */
  getList(searchCriteria: SearchCriteria): Promise<SearchResults<ProductInterface>>;
  /** Products found among these skus, keyed by skuKey(sku); missing ones are absent. One query. */
  getBySkus(skus: readonly string[]): Promise<Map<string, ProductInterface>>;
}

function productSchema(identityRequired: boolean) {
  return Joi.object({
    // On PUT the path's sku wins: a body sku of null or "" (Magento's own test harness sends null) is accepted and unused.
    sku: identityRequired ? skuSchema.required() : skuSchema.allow(null, ''),
    name: identityRequired ? Joi.string().trim().min(1).max(255).required() : Joi.string().trim().min(1).max(255),
    price: Joi.number().min(0).max(1e12),
    // min/max rather than valid(): one error per bad value (valid() adds a second one for non-numbers).
    status: Joi.number().integer().min(PRODUCT_STATUS_ENABLED).max(PRODUCT_STATUS_DISABLED),
    extension_attributes: Joi.object({
      // Magento's other stock item fields (min_qty, manage_stock...) are accepted and ignored.
      stock_item: stockItemInputSchema(),
    }).unknown(true),
    // Fields a Magento client sends or reads back that this catalog subset does not keep:
    // accepted and ignored, so a product read from Magento can be posted here as it is.
    ...Object.fromEntries(IGNORED_PRODUCT_FIELDS.map((field) => [field, Joi.any().strip()])),
  }).required();
}

export const ProductRepositoryInterface = defineContract<ProductRepositoryInterface>(
  'Dispensary\\Catalog\\Api\\ProductRepositoryInterface',
  {
    save: { params: [{ name: 'product', schema: productSchema(true) }] },
    update: {
      params: [
        { name: 'sku', schema: skuSchema.required() },
        { name: 'product', schema: productSchema(false) },
      ],
      description: 'Update the product (created when the sku is new); the path sku wins over the body',
    },
    get: { params: [{ name: 'sku', schema: skuSchema.required() }] },
    deleteById: {
      params: [{ name: 'sku', schema: skuSchema.required() }],
      description: 'Delete the product; answers true',
    },
    getList: {
      params: [searchCriteriaParameter(PRODUCT_SEARCH_FIELDS)],
      description: 'Products matching search criteria',
    },
    getBySkus: { params: [{ name: 'skus', schema: Joi.array().items(Joi.string()).required() }] },
  },
);
