import { defineContract } from '#framework';
import { RecommendationInterface } from './Data/RecommendationInterface.js';
import { recommendationIdSchema } from './schemas.js';

export interface RecommendationRepositoryInterface {
  /** The whole recommendation, if it belongs to the current store (any store under `all`); else 404. */
  get(recommendationId: string): Promise<RecommendationInterface>;
}

export const RecommendationRepositoryInterface = defineContract<RecommendationRepositoryInterface>(
  'Dispensary\\Recommendation\\Api\\RecommendationRepositoryInterface',
  {
    get: { params: [{ name: 'recommendationId', schema: recommendationIdSchema }], description: 'A recommendation with its items', returns: RecommendationInterface },
  },
);
