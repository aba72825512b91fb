import {
  AuthorizationException,
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  InputException,
  NoSuchEntityException,
  nowTimestamp,
  PreparedQuery,
  requestContext,
  runSearch,
  searchCriteriaOutput,
  type SearchColumn,
  type SearchCriteria,
  type SearchResults,
} from '#framework';
import {
  PRODUCT_STATUS_DISABLED,
  PRODUCT_STATUS_ENABLED,
  type ProductInput,
  type ProductInterface,
} from '../Api/Data/ProductInterface.js';
import { stockItem } from '../Api/Data/StockItemInterface.js';
import { PRODUCT_SEARCH_FIELDS, type ProductRepositoryInterface } from '../Api/ProductRepositoryInterface.js';
import { skuKey } from '../Api/skuKey.js';

export const PRODUCT_TABLE = 'catalog_product';

/** Magento's ProductRepository::get (and deleteById, which gets first) for a sku it does not know: 404, no parameters. */
export const PRODUCT_NOT_FOUND = "The product that was requested doesn't exist. Verify the product and try again.";

export function productNotFound(): NoSuchEntityException {
  return new NoSuchEntityException(PRODUCT_NOT_FOUND);
}
export const PRODUCTS_RESOURCE = 'Dispensary_Catalog::products';

export interface ProductRow {
  entity_id: number | string;
  sku: string;
  sku_key: string;
  name: string;
  price: number | string;
  status: number | string;
  is_in_stock: number | boolean | string;
  qty: number | string;
  created_at: string;
  updated_at: string;
}

/**
 * The catalog lookup of Add Items, compiled once per IN-list length (PreparedQuery). Lists are
 * padded to a power of two by repeating their last key (IN ignores repeats), so a dozen
 * statements serve every length up to the 1000 items a request may carry.
 */
const PRODUCTS_BY_KEYS = new Map<number, PreparedQuery<readonly string[], ProductRow[]>>();
function productsByKeys(size: number): PreparedQuery<readonly string[], ProductRow[]> {
  let query = PRODUCTS_BY_KEYS.get(size);
  if (!query) {
    query = new PreparedQuery((db, value) =>
      db(PRODUCT_TABLE)
        .select(PRODUCT_COLUMNS)
        .whereIn(
          'sku_key',
          Array.from({ length: size }, (_, i) => value((keys) => keys[i])),
        ),
    );
    PRODUCTS_BY_KEYS.set(size, query);
  }
  return query;
}

function padToPowerOfTwo(keys: readonly string[]): string[] {
  const padded = [...keys];
  while (padded.length & (padded.length - 1)) padded.push(keys[keys.length - 1]!);
  return padded;
}

/** Rows come back as numbers, strings or 0/1 depending on the driver; the output is always typed. */
export function toProduct(row: ProductRow): ProductInterface {
  const id = Number(row.entity_id);
  return {
    id,
    sku: row.sku,
    name: row.name,
    price: Number(row.price),
    status: Number(row.status) === PRODUCT_STATUS_DISABLED ? PRODUCT_STATUS_DISABLED : PRODUCT_STATUS_ENABLED,
    created_at: row.created_at,
    updated_at: row.updated_at,
    extension_attributes: {
      stock_item: stockItem(id, Number(row.qty), row.is_in_stock === true || Number(row.is_in_stock) === 1),
    },
  };
}

export const PRODUCT_COLUMNS = [
  'entity_id',
  'sku',
  'sku_key',
  'name',
  'price',
  'status',
  'is_in_stock',
  'qty',
  'created_at',
  'updated_at',
] as const;

/** Search fields to columns (the whitelist: nothing else reaches SQL). */
const SEARCH_COLUMNS: Record<string, SearchColumn> = Object.fromEntries(
  Object.keys(PRODUCT_SEARCH_FIELDS).map((field) => [field, { column: `${PRODUCT_TABLE}.${field}` }]),
);

/**
 * Products, global to all stores. Save follows Magento: an existing sku (case-insensitively after
 * trimming) is updated with the fields given, the others keep their values; a new one is created
 * with status 1 and in stock unless told otherwise.
 */
@injectable()
export class ProductRepository implements ProductRepositoryInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async save(product: ProductInput): Promise<ProductInterface> {
    this.assertAllStores();
    return this.upsert(product.sku!, product);
  }

  async update(sku: string, product: ProductInput): Promise<ProductInterface> {
    this.assertAllStores();
    if (product.name !== undefined) return this.upsert(sku, product);
    // No name: an update of an existing product only (a new one needs its name, as in Magento).
    const key = skuKey(sku);
    const changes = this.changes(sku.trim(), product, nowTimestamp());
    const updated = await this.connection.get()(PRODUCT_TABLE).where({ sku_key: key }).update(changes);
    if (updated === 0) throw InputException.requiredField('product.name');
    return this.get(sku);
  }

  async get(sku: string): Promise<ProductInterface> {
    const row = (await this.connection
      .get()(PRODUCT_TABLE)
      .select(PRODUCT_COLUMNS)
      .where({ sku_key: skuKey(sku) })
      .first()) as ProductRow | undefined;
    if (!row) throw productNotFound();
    return toProduct(row);
  }

  async deleteById(sku: string): Promise<boolean> {
    this.assertAllStores();
    const deleted = await this.connection
      .get()(PRODUCT_TABLE)
      .where({ sku_key: skuKey(sku) })
      .del();
    if (deleted === 0) throw productNotFound();
    return true;
  }

  async getList(searchCriteria: SearchCriteria): Promise<SearchResults<ProductInterface>> {
    const query = this.connection
      .get()(PRODUCT_TABLE)
      .select(PRODUCT_COLUMNS.map((c) => `${PRODUCT_TABLE}.${c}`));
    const { rows, total } = await runSearch<ProductRow>(query, searchCriteria, {
      fields: PRODUCT_SEARCH_FIELDS,
      columns: SEARCH_COLUMNS,
      dialect: this.connection.dialect,
      tieBreaker: `${PRODUCT_TABLE}.entity_id`,
    });
    return { items: rows.map(toProduct), search_criteria: searchCriteriaOutput(searchCriteria), total_count: total };
  }

  async getBySkus(skus: readonly string[]): Promise<Map<string, ProductInterface>> {
    const keys = [...new Set(skus.map(skuKey))].filter((k) => k !== '');
    const found = new Map<string, ProductInterface>();
    if (keys.length === 0) return found;
    const padded = padToPowerOfTwo(keys);
    const rows = await this.connection.run(productsByKeys(padded.length), padded);
    for (const row of rows) found.set(row.sku_key, toProduct(row));
    return found;
  }

  private assertAllStores(): void {
    if (!requestContext.caller().allStores) throw AuthorizationException.forResources([PRODUCTS_RESOURCE]);
  }

  /** What an update changes: the fields given (the sku takes the spelling of the latest save, as Magento's does). */
  private changes(sku: string, product: ProductInput, now: string): Record<string, unknown> {
    const stock = product.extension_attributes?.stock_item;
    const changes: Record<string, unknown> = { sku, updated_at: now };
    if (product.name !== undefined) changes.name = product.name.trim();
    if (product.price !== undefined) changes.price = product.price;
    if (product.status !== undefined) changes.status = product.status;
    if (stock?.qty !== undefined) changes.qty = stock.qty;
    // A qty without a status sets it from the qty (Magento's min_qty 0, no backorders).
    if (stock?.is_in_stock !== undefined) changes.is_in_stock = stock.is_in_stock;
    else if (stock?.qty !== undefined) changes.is_in_stock = stock.qty > 0;
    return changes;
  }

  private async upsert(rawSku: string, product: ProductInput): Promise<ProductInterface> {
    const sku = rawSku.trim();
    const key = skuKey(sku);
    const now = nowTimestamp();
    const changes = this.changes(sku, product, now);
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
        qty: changes.qty ?? 0,
        is_in_stock: changes.is_in_stock ?? true,
        created_at: now,
        updated_at: now,
      })
      .onConflict(['sku_key'])
      .merge(changes);
    const row = (await db(PRODUCT_TABLE).select(PRODUCT_COLUMNS).where({ sku_key: key }).first()) as
      ProductRow | undefined;
    if (!row) throw new Error(`Product "${sku}" vanished right after it was saved`);
    return toProduct(row);
  }
}
