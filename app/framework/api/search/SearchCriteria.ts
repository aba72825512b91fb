/**
 * Magento's search criteria (`Framework\Api\SearchCriteriaInterface`) and search results
 * (`SearchResultsInterface`), as plain data. A contract method that takes search criteria declares
 * its parameter with searchCriteriaParameter(); the web API parses the bracketed query
 * (`searchCriteria[filter_groups][0][filters][0][field]=...`) into a SearchCriteria whose filter
 * values are already typed and checked against the repository's fields.
 */

/** Every `condition_type` Magento's collections understand through REST. */
export const CONDITION_TYPES = [
  'eq',
  'neq',
  'like',
  'nlike',
  'in',
  'nin',
  'gt',
  'gteq',
  'lt',
  'lteq',
  'from',
  'to',
  'moreq',
  'null',
  'notnull',
  'finset',
  'nfinset',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** Magento 2.4's `webapi/validation/maximum_page_size` and `default_page_size` defaults. */
export const MAX_PAGE_SIZE = 300;
export const DEFAULT_PAGE_SIZE = 20;
/** Pages are counted in 32-bit integers (Magento's `int`); beyond it is a 400. */
export const MAX_CURRENT_PAGE = 2147483647;

/**
 * How a field compares: `text` case-insensitively (see applySearchCriteria), `timestamp` as
 * Magento's UTC `YYYY-MM-DD HH:MM:SS`, numbers and booleans as such.
 */
export type SearchFieldType = 'text' | 'integer' | 'decimal' | 'boolean' | 'timestamp';

/** The fields a repository lets clients filter and sort by, with their types. */
export type SearchFields = Readonly<Record<string, SearchFieldType>>;

export type FilterValue = string | number | boolean;

export interface Filter {
  readonly field: string;
  readonly conditionType: ConditionType;
  /** As sent (echoed in `search_criteria`). */
  readonly value: string | null;
  /** Typed values the SQL binds: one for most conditions, several for in/nin, none for null/notnull. */
  readonly values: readonly FilterValue[];
}

export interface FilterGroup {
  /** ORed. */
  readonly filters: readonly Filter[];
}

export interface SortOrder {
  readonly field: string;
  readonly direction: 'ASC' | 'DESC';
}

export interface SearchCriteria {
  /** ANDed. */
  readonly filterGroups: readonly FilterGroup[];
  readonly sortOrders: readonly SortOrder[];
  readonly pageSize: number;
  readonly currentPage: number;
}

/** What a getList answers: `{"items", "search_criteria", "total_count"}` on the wire. */
export interface SearchResults<T> {
  items: T[];
  search_criteria: SearchCriteriaOutput;
  /** Every match, not only this page's. */
  total_count: number;
}

export interface SearchCriteriaOutput {
  filter_groups: { filters: { field: string; value: string | null; condition_type: ConditionType }[] }[];
  sort_orders?: { field: string; direction: 'ASC' | 'DESC' }[];
  page_size: number;
  current_page: number;
}

/** The criteria as understood, in Magento's output shape. */
export function searchCriteriaOutput(criteria: SearchCriteria): SearchCriteriaOutput {
  return {
    filter_groups: criteria.filterGroups.map((group) => ({
      filters: group.filters.map((f) => ({ field: f.field, value: f.value, condition_type: f.conditionType })),
    })),
    ...(criteria.sortOrders.length
      ? { sort_orders: criteria.sortOrders.map((s) => ({ field: s.field, direction: s.direction })) }
      : {}),
    page_size: criteria.pageSize,
    current_page: criteria.currentPage,
  };
}
