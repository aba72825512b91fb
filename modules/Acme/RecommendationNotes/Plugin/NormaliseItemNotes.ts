import type {
  RecommendationItemInput,
  RecommendationItemsRequest,
} from '../../../Dispensary/Recommendation/Api/Data/RecommendationItemInterface.js';
import type { RecommendationItemManagementInterface } from '../../../Dispensary/Recommendation/Api/RecommendationItemManagementInterface.js';

/**
 * Tidies item notes before they are stored: line breaks become `\n`, spaces at the ends of lines
 * and of the note go, runs of blank lines shrink to one, and a note left empty becomes null (no
 * note). A note that is absent stays absent, so Update Items still keeps the stored one.
 *
 * A `before` plugin: it returns the arguments to use instead, or null to keep them as they are.
 * It has no constructor dependencies, so it needs no `@injectable()`; it is synchronous.
 */
export class NormaliseItemNotes {
  beforeAddItems(
    _subject: RecommendationItemManagementInterface,
    recommendationId: string,
    recommendation: RecommendationItemsRequest,
  ): [string, RecommendationItemsRequest] | null {
    return normaliseRequest(recommendationId, recommendation);
  }

  beforeUpdateItems(
    _subject: RecommendationItemManagementInterface,
    recommendationId: string,
    recommendation: RecommendationItemsRequest,
  ): [string, RecommendationItemsRequest] | null {
    return normaliseRequest(recommendationId, recommendation);
  }
}

export function normaliseNote(note: string): string | null {
  const tidy = note
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return tidy === '' ? null : tidy;
}

/** The new arguments, or null when no note changes (the arguments stay as they are). */
function normaliseRequest(
  recommendationId: string,
  recommendation: RecommendationItemsRequest,
): [string, RecommendationItemsRequest] | null {
  let changed = false;
  const items = recommendation.items.map((item): RecommendationItemInput => {
    if (typeof item.note !== 'string') return item;
    const note = normaliseNote(item.note);
    if (note === item.note) return item;
    changed = true;
    return { ...item, note };
  });
  // Never change the caller's objects in place: return new ones.
  return changed ? [recommendationId, { ...recommendation, items }] : null;
}
