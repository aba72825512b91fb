import { inject, injectable } from '#framework';
import type { RecommendationInterface } from '../Api/Data/RecommendationInterface.js';
import type { RecommendationRepositoryInterface } from '../Api/RecommendationRepositoryInterface.js';
import { RecommendationResource, toRecommendation } from './ResourceModel/RecommendationResource.js';

@injectable()
export class RecommendationRepository implements RecommendationRepositoryInterface {
  constructor(
    @inject('Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource') private readonly resource: RecommendationResource,
  ) {}

  async get(recommendationId: string): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId);
    return toRecommendation(row, await this.resource.readItems(row.recommendation_id));
  }
}
