import { inject, injectable, nowTimestamp } from '#framework';
import { skuKey } from '../../Catalog/Api/skuKey.js';
import type { RecommendationInterface } from '../Api/Data/RecommendationInterface.js';
import {
  DEFAULT_AUTOSHIP_INTERVAL,
  DEFAULT_FULFILLMENT_TYPE,
  type RecommendationItemInterface,
  type RecommendationItemsRequest,
} from '../Api/Data/RecommendationItemInterface.js';
import type { RecommendationItemManagementInterface } from '../Api/RecommendationItemManagementInterface.js';
import { NewItemRows } from './NewItemRows.js';
import { RecommendationResource, toItem, toRecommendation, type ItemRow } from './ResourceModel/RecommendationResource.js';

/** The fields Update Items may change, with what `null` stands for. */
const UPDATABLE = [
  ['qty', null],
  ['autoship_interval', DEFAULT_AUTOSHIP_INTERVAL],
  ['note', null],
  ['fulfillment_type', DEFAULT_FULFILLMENT_TYPE],
  ['doctor_id', null],
  ['location_id', null],
] as const;

/**
 * Add, Update and Delete Items. Each call first locks the recommendation row (404 outside the
 * scope), so writes to one recommendation queue behind each other; the unique index on
 * (recommendation, sku key) guards Add Items even without the lock. The request's unit of work
 * rolls everything back if this or any plugin throws.
 */
@injectable()
export class RecommendationItemManagement implements RecommendationItemManagementInterface {
  constructor(
    @inject('Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource') private readonly resource: RecommendationResource,
    @inject('Dispensary\\Recommendation\\Model\\NewItemRows') private readonly newItems: NewItemRows,
  ) {}

  async addItems(recommendationId: string, recommendation: RecommendationItemsRequest): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const stored = await this.resource.readKeyedItems(row.recommendation_id);
    const { rows, products } = await this.newItems.build(row.recommendation_id, recommendation.items, new Set(stored.map(({ key }) => key)));
    const items = stored.map(({ item }) => item);
    if (rows.length) {
      // The row lock makes this request the only writer of the recommendation's items; the
      // unique index would still skip (never duplicate) a sku that raced in without it.
      await this.resource.insertItemsIgnoringExisting(rows);
      for (const added of rows) {
        const product = products.get(added.sku_key)!;
        items.push(toItem(added, product.sku, product.extension_attributes.stock_item.is_in_stock));
      }
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    return toRecommendation(row, items);
  }

  async updateItems(recommendationId: string, recommendation: RecommendationItemsRequest): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const stored = await this.resource.readKeyedItems(row.recommendation_id);
    const items = stored.map(({ item }) => item);
    const byKey = new Map<string, RecommendationItemInterface>(stored.map(({ key, item }) => [key, item]));
    const before = new Map(items.map((item) => [item.item_id, { ...item }]));
    for (const change of recommendation.items) {
      const item = byKey.get(skuKey(change.sku));
      if (!item) continue; // not in the recommendation: ignored
      const target = item as unknown as Record<string, unknown>;
      for (const [field, fallback] of UPDATABLE) {
        const value = change[field];
        if (value !== undefined) target[field] = value ?? fallback;
      }
    }
    let changed = false;
    for (const item of items) {
      const old = before.get(item.item_id)!;
      const changes: Partial<ItemRow> = {};
      for (const [field] of UPDATABLE) {
        if (item[field] !== old[field]) (changes as Record<string, unknown>)[field] = item[field];
      }
      if (Object.keys(changes).length) {
        changed = true;
        await this.resource.updateItem(item.item_id, changes);
      }
    }
    if (changed) {
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    return toRecommendation(row, items);
  }

  async deleteItems(recommendationId: string, ids: string[]): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const deleted = await this.resource.deleteItems(row.recommendation_id, ids);
    if (deleted > 0) {
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    return toRecommendation(row, await this.resource.readItems(row.recommendation_id));
  }
}
