export * from './SearchCriteria.js';
export {
  parseSearchCriteria,
  normaliseTimestamp,
  MAXIMUM_PAGE_SIZE,
  MINIMUM_PAGE_SIZE,
} from './parseSearchCriteria.js';
export { runSearch, type SearchColumn, type SearchOptions } from './applySearchCriteria.js';
export { searchCriteriaParameter, searchCriteriaFields } from './searchCriteriaParameter.js';
