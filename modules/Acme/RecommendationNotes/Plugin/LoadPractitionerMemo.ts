import { inject, injectable, type PluginResult } from '#framework';
import type { RecommendationRepositoryInterface } from '../../../Dispensary/Recommendation/Api/RecommendationRepositoryInterface.js';
import type { MemoStore } from '../Model/MemoStore.js';

/**
 * Fills the extension attributes `practitioner_memo` and `item_changes` when the repository loads a
 * recommendation: Magento's usual place for it (an `after` plugin on the repository's `get`).
 * The web API hides `practitioner_memo` from callers without Acme_RecommendationNotes::memo.
 */
@injectable()
export class LoadPractitionerMemo {
  constructor(@inject('Acme\\RecommendationNotes\\Model\\MemoStore') private readonly memos: MemoStore) {}

  async afterGet(
    _subject: RecommendationRepositoryInterface,
    result: PluginResult<RecommendationRepositoryInterface, 'get'>,
  ): Promise<PluginResult<RecommendationRepositoryInterface, 'get'>> {
    const memo = await this.memos.read(result.recommendation_id);
    return { ...result, extension_attributes: { ...result.extension_attributes, ...memo } };
  }
}
