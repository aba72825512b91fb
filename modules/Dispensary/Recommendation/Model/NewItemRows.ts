import { randomUUID } from 'node:crypto';
import { inject, injectable, InputException, type InputError } from '#framework';
import { PRODUCT_STATUS_DISABLED, type ProductInterface } from '../../Catalog/Api/Data/ProductInterface.js';
import { ProductRepositoryInterface } from '../../Catalog/Api/ProductRepositoryInterface.js';
import { skuKey } from '../../Catalog/Api/skuKey.js';
import {
  DEFAULT_AUTOSHIP_INTERVAL,
  DEFAULT_FULFILLMENT_TYPE,
  type RecommendationItemInput,
} from '../Api/Data/RecommendationItemInterface.js';
import type { ItemRow } from './ResourceModel/RecommendationResource.js';

export const PRODUCT_NOT_FOUND = 'The product with SKU "%sku" does not exist. Verify "%fieldName" and try again.';
export const PRODUCT_DISABLED =
  'The product with SKU "%sku" is disabled and cannot be added to a recommendation. Verify "%fieldName" and try again.';

export interface NewItems {
  readonly rows: ItemRow[];
  /** Catalog products by sku key. */
  readonly products: ReadonlyMap<string, ProductInterface>;
}

/**
 * Turns requested items into rows to insert (creation and Add Items): one row per new sku key, the
 * first occurrence winning, each sku checked against the catalog in one look-up. Any unknown or
 * disabled sku makes the whole request a 400 that names every one of them.
 */
@injectable()
export class NewItemRows {
  constructor(@inject(ProductRepositoryInterface) private readonly products: ProductRepositoryInterface) {}

  /** `existing`: sku keys the recommendation already holds; their items are ignored, unchecked. */
  async build(
    recommendationId: string,
    items: readonly RecommendationItemInput[],
    existing: ReadonlySet<string> = new Set(),
  ): Promise<NewItems> {
    const first = new Map<string, { item: RecommendationItemInput; index: number }>();
    items.forEach((item, index) => {
      const key = skuKey(item.sku);
      if (!first.has(key) && !existing.has(key)) first.set(key, { item, index });
    });
    if (first.size === 0) return { rows: [], products: new Map() };
    const products = await this.products.getBySkus([...first.values()].map(({ item }) => item.sku));
    const errors: InputError[] = [];
    const rows: ItemRow[] = [];
    for (const [key, { item, index }] of first) {
      const product = products.get(key);
      const where = { sku: item.sku, fieldName: `recommendation.items[${index}].sku` };
      if (!product) errors.push({ phrase: PRODUCT_NOT_FOUND, parameters: where });
      else if (product.status === PRODUCT_STATUS_DISABLED) errors.push({ phrase: PRODUCT_DISABLED, parameters: where });
      else {
        rows.push({
          item_id: randomUUID(),
          recommendation_id: recommendationId,
          sku: product.sku,
          sku_key: skuKey(product.sku),
          qty: item.qty,
          autoship_interval: item.autoship_interval ?? DEFAULT_AUTOSHIP_INTERVAL,
          note: item.note ?? null,
          fulfillment_type: item.fulfillment_type ?? DEFAULT_FULFILLMENT_TYPE,
          doctor_id: item.doctor_id ?? null,
          location_id: item.location_id ?? null,
        });
      }
    }
    if (errors.length) throw new InputException(errors);
    return { rows, products };
  }
}
