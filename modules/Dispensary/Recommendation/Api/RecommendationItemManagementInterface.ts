import { defineContract } from '#framework';
import { RecommendationInterface } from './Data/RecommendationInterface.js';
import type { RecommendationItemsRequest } from './Data/RecommendationItemInterface.js';
import { itemIdsSchema, itemsRequestSchema, recommendationIdSchema } from './schemas.js';

/**
 * The item operations of the seed, and the public extension point of the dispensary: plugins
 * (before, around, after) on this contract see every Add, Update and Delete Items call.
 * `recommendation` is the validated request, always `{items: [...]}` (the single-`item` form has
 * already become a one-element list). Each method resolves to the whole recommendation, which is
 * what the client receives: an after plugin may change it.
 */
export interface RecommendationItemManagementInterface {
  /**
   * Adds items. Skus match case-insensitively after trimming; an item whose sku is already in the
   * recommendation is ignored, and within the request the first occurrence wins. Every sku must
   * name an enabled catalog product (else 400 naming each, nothing added).
   */
  addItems(recommendationId: string, recommendation: RecommendationItemsRequest): Promise<RecommendationInterface>;
  /**
   * Updates items. An item whose sku is not in the recommendation is ignored; fields present
   * replace the stored ones (null: the default), absent ones keep theirs; occurrences apply in order.
   */
  updateItems(recommendationId: string, recommendation: RecommendationItemsRequest): Promise<RecommendationInterface>;
  /** Removes items by item_id; ids that are not items of this recommendation are ignored. */
  deleteItems(recommendationId: string, ids: string[]): Promise<RecommendationInterface>;
}

export const RecommendationItemManagementInterface = defineContract<RecommendationItemManagementInterface>(
  'Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface',
  {
    addItems: {
      params: [
        { name: 'recommendationId', schema: recommendationIdSchema },
        { name: 'recommendation', schema: itemsRequestSchema },
      ],
      description: 'Add Items: skus already in the recommendation are ignored',
      returns: RecommendationInterface,
    },
    updateItems: {
      params: [
        { name: 'recommendationId', schema: recommendationIdSchema },
        { name: 'recommendation', schema: itemsRequestSchema },
      ],
      description: 'Update Items: skus not in the recommendation are ignored',
      returns: RecommendationInterface,
    },
    deleteItems: {
      params: [
        { name: 'recommendationId', schema: recommendationIdSchema },
        { name: 'ids', schema: itemIdsSchema, aliases: ['id'] },
      ],
      description: 'Delete Items by item_id (query ?id[]=...)',
      returns: RecommendationInterface,
    },
  },
);
