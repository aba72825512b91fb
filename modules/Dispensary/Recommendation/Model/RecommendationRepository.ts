import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  requestContext,
  runSearch,
  searchCriteriaOutput,
  type SearchColumn,
  type SearchCriteria,
  type SearchResults,
} from '#framework';
import type { RecommendationInterface } from '../Api/Data/RecommendationInterface.js';
import {
  RECOMMENDATION_SEARCH_FIELDS,
  type RecommendationRepositoryInterface,
} from '../Api/RecommendationRepositoryInterface.js';
import {
  RECOMMENDATION_TABLE,
  RecommendationResource,
  toRecommendation,
  type RecommendationRow,
} from './ResourceModel/RecommendationResource.js';

const RECOMMENDATION_COLUMNS = [
  'recommendation_id',
  'patient_id',
  'store_id',
  'format',
  'status',
  'note',
  'notify_email',
  'notify_sms',
  'created_at',
  'updated_at',
].map((c) => `${RECOMMENDATION_TABLE}.${c}`);

/** Search fields to columns (the whitelist: nothing else reaches SQL). */
const SEARCH_COLUMNS: Record<string, SearchColumn> = Object.fromEntries(
  Object.keys(RECOMMENDATION_SEARCH_FIELDS).map((field) => [
    field,
    { column: `${RECOMMENDATION_TABLE}.${field}`, nullable: field === 'note' },
  ]),
);

@injectable()
export class RecommendationRepository implements RecommendationRepositoryInterface {
  constructor(
    @inject('Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource')
    private readonly resource: RecommendationResource,
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
  ) {}

  async get(recommendationId: string): Promise<RecommendationInterface> {
    const row = await this.resource.load(recommendationId);
    return toRecommendation(row, await this.resource.readItems(row.recommendation_id));
  }

  async getList(searchCriteria: SearchCriteria): Promise<SearchResults<RecommendationInterface>> {
    const query = this.connection.get()(RECOMMENDATION_TABLE).select(RECOMMENDATION_COLUMNS);
    // Never across stores: a store's scope sees its own recommendations only.
    if (!requestContext.isAllStores()) query.where(`${RECOMMENDATION_TABLE}.store_id`, requestContext.store().id);
    const { rows, total } = await runSearch<RecommendationRow>(query, searchCriteria, {
      fields: RECOMMENDATION_SEARCH_FIELDS,
      columns: SEARCH_COLUMNS,
      dialect: this.connection.dialect,
      tieBreaker: `${RECOMMENDATION_TABLE}.recommendation_id`,
    });
    const items = await this.resource.readItemsOf(rows.map((r) => r.recommendation_id));
    return {
      items: rows.map((row) => toRecommendation(row, items.get(row.recommendation_id) ?? [])),
      search_criteria: searchCriteriaOutput(searchCriteria),
      total_count: total,
    };
  }
}
