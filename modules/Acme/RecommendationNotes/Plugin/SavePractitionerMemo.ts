import { inject, injectable, type PluginResult } from '#framework';
import type { RecommendationCreateRequest } from '../../../Dispensary/Recommendation/Api/Data/RecommendationInterface.js';
import type { RecommendationManagementInterface } from '../../../Dispensary/Recommendation/Api/RecommendationManagementInterface.js';
import type { MemoStore } from '../Model/MemoStore.js';

type Created = PluginResult<RecommendationManagementInterface, 'create'>;

/**
 * Stores `recommendation.extension_attributes.practitioner_memo` of a creation request (the web
 * API has already type-checked it against etc/extension_attributes.xml; setup:di:compile typed it
 * as `string | null`) and answers it back. An `after` plugin receives the result, then the
 * method's arguments.
 */
@injectable()
export class SavePractitionerMemo {
  constructor(@inject('Acme\\RecommendationNotes\\Model\\MemoStore') private readonly memos: MemoStore) {}

  async afterCreate(
    _subject: RecommendationManagementInterface,
    result: Created,
    _patientId: number,
    request?: RecommendationCreateRequest,
  ): Promise<Created> {
    const memo = request?.extension_attributes?.practitioner_memo;
    if (memo === undefined) return result;
    await this.memos.saveMemo(result.recommendation_id, memo);
    return {
      ...result,
      extension_attributes: { ...result.extension_attributes, practitioner_memo: memo, item_changes: 0 },
    };
  }
}
