import { inject, injectable, type Observer, type ObserverInterface } from '#framework';
import type {
  Events,
  ITEMS_ADD_AFTER,
  ITEMS_DELETE_AFTER,
  ITEMS_UPDATE_AFTER,
} from '../../../Dispensary/Recommendation/Api/events.js';
import type { MemoStore } from '../Model/MemoStore.js';

/** The data of the three events it observes (Dispensary_Recommendation declares each in Api/events.ts). */
type ItemChangeData =
  Events[typeof ITEMS_ADD_AFTER] | Events[typeof ITEMS_UPDATE_AFTER] | Events[typeof ITEMS_DELETE_AFTER];

/**
 * Observes Add, Update and Delete Items (etc/events.xml) and counts the items each one changed:
 * `added`, `updated` or `removed` of the event. It runs inside the request's unit of work, so the
 * count is kept only if the request succeeds. `setup:di:compile` checks that each event's data
 * fits ItemChangeData.
 */
@injectable()
export class CountItemChanges implements ObserverInterface<ItemChangeData> {
  constructor(@inject('Acme\\RecommendationNotes\\Model\\MemoStore') private readonly memos: MemoStore) {}

  async execute(observer: Observer<ItemChangeData>): Promise<void> {
    const data = observer.getEvent().getData();
    const changed = 'added' in data ? data.added : 'updated' in data ? data.updated : data.removed;
    if (changed.length > 0) await this.memos.countChanges(data.recommendation.recommendation_id, changed.length);
  }
}
