import { inject, injectable, type Observer, type ObserverInterface } from '#framework';
import type { RecommendationInterface } from '../../../Dispensary/Recommendation/Api/Data/RecommendationInterface.js';
import type { MemoStore } from '../Model/MemoStore.js';

/**
 * Observes Add, Update and Delete Items (etc/events.xml) and counts the items each one changed:
 * `added`, `updated` or `removed` of the event. It runs inside the request's unit of work, so the
 * count is kept only if the request succeeds.
 */
@injectable()
export class CountItemChanges implements ObserverInterface {
  constructor(@inject('Acme\\RecommendationNotes\\Model\\MemoStore') private readonly memos: MemoStore) {}

  async execute(observer: Observer): Promise<void> {
    const event = observer.getEvent();
    const recommendation = event.getData<RecommendationInterface>('recommendation');
    const changed = event.getData<unknown[] | undefined>('added') ?? event.getData<unknown[] | undefined>('updated') ?? event.getData<unknown[]>('removed');
    if (changed.length > 0) await this.memos.countChanges(recommendation.recommendation_id, changed.length);
  }
}
