import { FrameworkServices, inject, injectable, type Logger } from '#framework';
import type { RecommendationInterface } from '../../../Dispensary/Recommendation/Api/Data/RecommendationInterface.js';
import type { RecommendationItemsRequest } from '../../../Dispensary/Recommendation/Api/Data/RecommendationItemInterface.js';
import type { RecommendationItemManagementInterface } from '../../../Dispensary/Recommendation/Api/RecommendationItemManagementInterface.js';

type Proceed<A extends unknown[]> = (...args: A) => Promise<RecommendationInterface>;

/**
 * Logs how long each item operation takes and how many items it ends with, one line per call.
 * Declared in etc/webapi_rest/di.xml, so it times REST calls only, not CLI or start-up work.
 *
 * An `around` plugin: it gets `proceed`, which runs the rest of the chain and the method itself,
 * and returns the result. It has a constructor dependency (the logger), so it is `@injectable()`.
 */
@injectable()
export class LogItemOperationTime {
  constructor(@inject(FrameworkServices.Logger) private readonly logger: Logger) {}

  aroundAddItems(
    _subject: RecommendationItemManagementInterface,
    proceed: Proceed<[string, RecommendationItemsRequest]>,
    recommendationId: string,
    recommendation: RecommendationItemsRequest,
  ): Promise<RecommendationInterface> {
    return this.timed('addItems', recommendationId, recommendation.items.length, () =>
      proceed(recommendationId, recommendation),
    );
  }

  aroundUpdateItems(
    _subject: RecommendationItemManagementInterface,
    proceed: Proceed<[string, RecommendationItemsRequest]>,
    recommendationId: string,
    recommendation: RecommendationItemsRequest,
  ): Promise<RecommendationInterface> {
    return this.timed('updateItems', recommendationId, recommendation.items.length, () =>
      proceed(recommendationId, recommendation),
    );
  }

  aroundDeleteItems(
    _subject: RecommendationItemManagementInterface,
    proceed: Proceed<[string, string[]]>,
    recommendationId: string,
    ids: string[],
  ): Promise<RecommendationInterface> {
    return this.timed('deleteItems', recommendationId, ids.length, () => proceed(recommendationId, ids));
  }

  /** Not a plugin method: only before/around/after + a method name are. */
  private async timed(
    operation: string,
    recommendationId: string,
    requested: number,
    call: () => Promise<RecommendationInterface>,
  ): Promise<RecommendationInterface> {
    const started = process.hrtime.bigint();
    let outcome = 'failed';
    let itemCount: number | undefined;
    try {
      const result = await call();
      outcome = 'done';
      itemCount = result.items.length;
      return result;
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      this.logger.info(
        {
          plugin: 'acme_recommendation_notes_timing',
          operation,
          recommendationId,
          requested,
          itemCount,
          outcome,
          ms: Math.round(ms * 100) / 100,
        },
        `recommendation ${operation} ${outcome} in ${ms.toFixed(1)} ms`,
      );
    }
  }
}
