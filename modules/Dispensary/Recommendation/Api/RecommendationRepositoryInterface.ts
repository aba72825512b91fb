import {
  defineContract,
  searchCriteriaParameter,
  type SearchCriteria,
  type SearchFields,
  type SearchResults,
} from '#framework';
import { RecommendationInterface } from './Data/RecommendationInterface.js';
import { recommendationIdSchema } from './schemas.js';

export interface RecommendationRepositoryInterface {
  /** The whole recommendation, if it belongs to the current store (any store under `all`); else 404. */
  get(recommendationId: string): Promise<RecommendationInterface>;
  /**
   * Recommendations of the current store (every store under `all`) matching Magento search
   * criteria, each with its items. `updated_at` `gt` a time lists what changed since then.
   */
  getList(searchCriteria: SearchCriteria): Promise<SearchResults<RecommendationInterface>>;
}

/** What GET /V1/dispensary/recommendation/search filters and sorts by. */
export const RECOMMENDATION_SEARCH_FIELDS: SearchFields = {
  recommendation_id: 'text',
  patient_id: 'integer',
  store_id: 'integer',
  format: 'text',
  status: 'text',
  note: 'text',
  notify_email: 'boolean',
  notify_sms: 'boolean',
  created_at: 'timestamp',
  updated_at: 'timestamp',
};

export const RecommendationRepositoryInterface = defineContract<RecommendationRepositoryInterface>(
  'Dispensary\\Recommendation\\Api\\RecommendationRepositoryInterface',
  {
    get: {
      params: [{ name: 'recommendationId', schema: recommendationIdSchema }],
      description: 'A recommendation with its items',
      returns: RecommendationInterface,
    },
    getList: {
      params: [searchCriteriaParameter(RECOMMENDATION_SEARCH_FIELDS)],
      description: 'Recommendations of the current store matching search criteria, with their items',
    },
  },
);
