import { inject, injectable } from '#framework';
import type { RecommendationCreateRequest, RecommendationInterface } from '../../../Dispensary/Recommendation/Api/Data/RecommendationInterface.js';
import type { RecommendationManagementInterface } from '../../../Dispensary/Recommendation/Api/RecommendationManagementInterface.js';
import type { MemoStore } from '../Model/MemoStore.js';

/**
 * Stores `recommendation.extension_attributes.practitioner_memo` of a creation request (the web
 * API has already type-checked it against etc/extension_attributes.xml) and answers it back.
 * An `after` plugin receives the result, then the method's arguments.
 */
@injectable()
export class SavePractitionerMemo {
  constructor(@inject('Acme\\RecommendationNotes\\Model\\MemoStore') private readonly memos: MemoStore) {}

  async afterCreate(
    _subject: RecommendationManagementInterface,
    result: RecommendationInterface,
    _patientId: number,
    request?: RecommendationCreateRequest & { extension_attributes?: { practitioner_memo?: string | null } },
  ): Promise<RecommendationInterface> {
    const memo = request?.extension_attributes?.practitioner_memo;
    if (memo === undefined) return result;
    await this.memos.saveMemo(result.recommendation_id, memo);
    const extension = (result.extension_attributes ?? {}) as Record<string, unknown>;
    return { ...result, extension_attributes: { ...extension, practitioner_memo: memo, item_changes: 0 } };
  }
}
