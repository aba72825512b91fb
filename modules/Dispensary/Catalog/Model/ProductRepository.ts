import {
  AuthorizationException,
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  NoSuchEntityException,
  nowTimestamp,
  requestContext,
} from '#framework';
import {
  PRODUCT_STATUS_DISABLED,
  PRODUCT_STATUS_ENABLED,
  type ProductInput,
  type ProductInterface,
} from '../Api/Data/ProductInterface.js';
import type { ProductRepositoryInterface } from '../Api/ProductRepositoryInterface.js';
import { skuKey } from '../Api/skuKey.js';

export const PRODUCT_TABLE = 'catalog_product';
export const PRODUCTS_RESOURCE = 'Dispensary_Catalog::products';

interface ProductRow {
  entity_id: number | string;
  sku: string;
  sku_key: string;
  name: string;
  price: number | string;
  status: number | string;
  is_in_stock: number | boolean | string;
}

/** Rows come back as numbers, strings or 0/1 depending on the driver; the output is always typed. */
function toProduct(row: ProductRow): ProductInterface {
  return {
    id: Number(row.entity_id),
    sku: row.sku,
    name: row.name,
    price: Number(row.price),
    status: Number(row.status) === PRODUCT_STATUS_DISABLED ? PRODUCT_STATUS_DISABLED : PRODUCT_STATUS_ENABLED,
    extension_attributes: { stock_item: { is_in_stock: row.is_in_stock === true || Number(row.is_in_stock) === 1 } },
  };
}

const COLUMNS = ['entity_id', 'sku', 'sku_key', 'name', 'price', 'status', 'is_in_stock'] as const;

/**
 * Products, global to all stores. Save follows Magento: an existing sku (case-insensitively after
 * trimming) is updated with the fields given, the others keep their values; a new one is created
 * with status 1 and in stock unless told otherwise.
 */
@injectable()
export class ProductRepository implements ProductRepositoryInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async save(product: ProductInput): Promise<ProductInterface> {
    if (!requestContext.caller().allStores) throw AuthorizationException.forResources([PRODUCTS_RESOURCE]);
    const sku = product.sku.trim();
    const key = skuKey(sku);
    const now = nowTimestamp();
    const isInStock = product.extension_attributes?.stock_item?.is_in_stock;
    // What an update changes: the fields given (the sku takes the spelling of the latest save, as Magento's does).
    const changes: Record<string, unknown> = { sku, name: product.name.trim(), updated_at: now };
    if (product.price !== undefined) changes.price = product.price;
    if (product.status !== undefined) changes.status = product.status;
    if (isInStock !== undefined) changes.is_in_stock = isInStock;
    const db = this.connection.get();
    // One statement creates or updates, so concurrent saves of one new sku never race to a
    // duplicate key (INSERT ... ON CONFLICT / ON DUPLICATE KEY UPDATE on sku_key).
    await db(PRODUCT_TABLE)
      .insert({
        sku,
        sku_key: key,
        name: changes.name,
        price: product.price ?? 0,
        status: product.status ?? PRODUCT_STATUS_ENABLED,
        is_in_stock: isInStock ?? true,
        created_at: now,
        updated_at: now,
      })
      .onConflict(['sku_key'])
      .merge(changes);
    const row = (await db(PRODUCT_TABLE).select(COLUMNS).where({ sku_key: key }).first()) as ProductRow | undefined;
    if (!row) throw new Error(`Product "${sku}" vanished right after it was saved`);
    return toProduct(row);
  }

  async get(sku: string): Promise<ProductInterface> {
    const row = (await this.connection.get()(PRODUCT_TABLE).select(COLUMNS).where({ sku_key: skuKey(sku) }).first()) as
      | ProductRow
      | undefined;
    if (!row) throw NoSuchEntityException.singleField('sku', sku.trim());
    return toProduct(row);
  }

  async getBySkus(skus: readonly string[]): Promise<Map<string, ProductInterface>> {
    const keys = [...new Set(skus.map(skuKey))].filter((k) => k !== '');
    const found = new Map<string, ProductInterface>();
    if (keys.length === 0) return found;
    const rows = (await this.connection.get()(PRODUCT_TABLE).select(COLUMNS).whereIn('sku_key', keys)) as ProductRow[];
    for (const row of rows) found.set(row.sku_key, toProduct(row));
    return found;
  }
}
