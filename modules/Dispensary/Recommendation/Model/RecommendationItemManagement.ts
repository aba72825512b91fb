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
import { RecommendationResource, toRecommendation, type ItemRow } from './ResourceModel/RecommendationResource.js';

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
    const { rows } = await this.newItems.build(row.recommendation_id, recommendation.items);
    await this.resource.insertItemsIgnoringExisting(rows);
    const items = await this.resource.readItems(row.recommendation_id);
    const inserted = new Set(rows.map((r) => r.item_id));
    if (items.some((item) => inserted.has(item.item_id))) {
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    return toRecommendation(row, items);
  }

  async updateItems(recommendationId: string, recommendation: RecommendationItemsRequest): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const items = await this.resource.readItems(row.recommendation_id);
    const byKey = new Map<string, RecommendationItemInterface>();
    for (const item of items) byKey.set(skuKey(item.sku), item);
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
