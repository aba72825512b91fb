import type { RecommendationInterface } from '../../../Dispensary/Recommendation/Api/Data/RecommendationInterface.js';
import type { RecommendationItemManagementInterface } from '../../../Dispensary/Recommendation/Api/RecommendationItemManagementInterface.js';

/**
 * Tells the client, in the response body, how many items carry a note:
 * `extension_attributes.noted_item_count`, beside whatever extension attributes other modules add.
 *
 * An `after` plugin: it gets the result (and the arguments as they reached the method) and
 * returns the result to use. Plain and synchronous; `async` would work the same way.
 */
export class AddNoteSummary {
  afterAddItems(
    _subject: RecommendationItemManagementInterface,
    result: RecommendationInterface,
  ): RecommendationInterface {
    return withNoteSummary(result);
  }

  afterUpdateItems(
    _subject: RecommendationItemManagementInterface,
    result: RecommendationInterface,
  ): RecommendationInterface {
    return withNoteSummary(result);
  }

  afterDeleteItems(
    _subject: RecommendationItemManagementInterface,
    result: RecommendationInterface,
  ): RecommendationInterface {
    return withNoteSummary(result);
  }
}

function withNoteSummary(recommendation: RecommendationInterface): RecommendationInterface {
  return {
    ...recommendation,
    extension_attributes: {
      ...recommendation.extension_attributes,
      noted_item_count: recommendation.items.filter((item) => item.note !== null && item.note !== '').length,
    },
  };
}
