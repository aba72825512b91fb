import { EventManagerInterface, inject, injectable, nowTimestamp } from '#framework';
import { skuKey } from '../../Catalog/Api/skuKey.js';
import type { RecommendationInterface } from '../Api/Data/RecommendationInterface.js';
import {
  DEFAULT_AUTOSHIP_INTERVAL,
  DEFAULT_FULFILLMENT_TYPE,
  type RecommendationItemInterface,
  type RecommendationItemsRequest,
} from '../Api/Data/RecommendationItemInterface.js';
import type { RecommendationItemManagementInterface } from '../Api/RecommendationItemManagementInterface.js';
import { ITEMS_ADD_AFTER, ITEMS_DELETE_AFTER, ITEMS_UPDATE_AFTER, type Events } from '../Api/events.js';
import { NewItemRows } from './NewItemRows.js';
import {
  RecommendationResource,
  toItem,
  toRecommendation,
  type ItemRow,
} from './ResourceModel/RecommendationResource.js';

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
    @inject('Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource')
    private readonly resource: RecommendationResource,
    @inject('Dispensary\\Recommendation\\Model\\NewItemRows') private readonly newItems: NewItemRows,
    @inject(EventManagerInterface) private readonly events: EventManagerInterface,
  ) {}

  async addItems(
    recommendationId: string,
    recommendation: RecommendationItemsRequest,
  ): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const stored = await this.resource.readKeyedItems(row.recommendation_id);
    const { rows, products } = await this.newItems.build(
      row.recommendation_id,
      recommendation.items,
      new Set(stored.map(({ key }) => key)),
    );
    const items = stored.map(({ item }) => item);
    const added: RecommendationItemInterface[] = [];
    if (rows.length) {
      // The row lock makes this request the only writer of the recommendation's items; the
      // unique index would still skip (never duplicate) a sku that raced in without it.
      await this.resource.insertItemsIgnoringExisting(rows);
      for (const inserted of rows) {
        const product = products.get(inserted.sku_key)!;
        added.push(toItem(inserted, product.sku, product.extension_attributes.stock_item.is_in_stock));
      }
      items.push(...added);
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    const result = toRecommendation(row, items);
    const addedIndexes = new Set(rows.map((r) => r.sku_key));
    const ignored = recommendation.items.filter((item) => {
      const key = skuKey(item.sku);
      if (!addedIndexes.has(key)) return true;
      addedIndexes.delete(key); // a later occurrence of an added sku was ignored
      return false;
    });
    await this.events.dispatch(ITEMS_ADD_AFTER, {
      recommendation: result,
      items: recommendation.items,
      added,
      ignored,
    } satisfies Events[typeof ITEMS_ADD_AFTER]);
    return result;
  }

  async updateItems(
    recommendationId: string,
    recommendation: RecommendationItemsRequest,
  ): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const stored = await this.resource.readKeyedItems(row.recommendation_id);
    const items = stored.map(({ item }) => item);
    const byKey = new Map<string, RecommendationItemInterface>(stored.map(({ key, item }) => [key, item]));
    const before = new Map(items.map((item) => [item.item_id, { ...item }]));
    const ignored: typeof recommendation.items = [];
    for (const change of recommendation.items) {
      const item = byKey.get(skuKey(change.sku));
      if (!item) {
        ignored.push(change); // not in the recommendation: ignored
        continue;
      }
      const target = item as unknown as Record<string, unknown>;
      for (const [field, fallback] of UPDATABLE) {
        const value = change[field];
        if (value !== undefined) target[field] = value ?? fallback;
      }
    }
    const updated: RecommendationItemInterface[] = [];
    for (const item of items) {
      const old = before.get(item.item_id)!;
      const changes: Partial<ItemRow> = {};
      for (const [field] of UPDATABLE) {
        if (item[field] !== old[field]) (changes as Record<string, unknown>)[field] = item[field];
      }
      if (Object.keys(changes).length) {
        updated.push(item);
        await this.resource.updateItem(item.item_id, changes);
      }
    }
    if (updated.length) {
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    const result = toRecommendation(row, items);
    await this.events.dispatch(ITEMS_UPDATE_AFTER, {
      recommendation: result,
      items: recommendation.items,
      updated,
      ignored,
    } satisfies Events[typeof ITEMS_UPDATE_AFTER]);
    return result;
  }

  async deleteItems(recommendationId: string, ids: string[]): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId, true);
    const stored = await this.resource.readItems(row.recommendation_id);
    const deleted = await this.resource.deleteItems(row.recommendation_id, ids);
    if (deleted > 0) {
      row.updated_at = nowTimestamp();
      await this.resource.touch(row.recommendation_id, row.updated_at);
    }
    // The row lock keeps the items as read: what is gone is what the ids named (compared as the resource does).
    const named = new Set(ids.map((id) => id.trim().toLowerCase()));
    const removed = deleted > 0 ? stored.filter((item) => named.has(item.item_id)) : [];
    const removedIds = new Set(removed.map((item) => item.item_id));
    const result = toRecommendation(
      row,
      stored.filter((item) => !removedIds.has(item.item_id)),
    );
    const ignored = ids.filter((id) => !removedIds.has(id.trim().toLowerCase()));
    await this.events.dispatch(ITEMS_DELETE_AFTER, {
      recommendation: result,
      ids,
      removed,
      ignored,
    } satisfies Events[typeof ITEMS_DELETE_AFTER]);
    return result;
  }
}
