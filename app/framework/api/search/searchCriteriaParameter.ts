/**
 * Declares a contract method's search criteria parameter:
 *
 *   getList: { params: [searchCriteriaParameter(PRODUCT_SEARCH_FIELDS)] }
 *
 * The web API reads it from the query (`?searchCriteria[...]`), parses and checks it against the
 * fields before any service or plugin runs (every problem in one Magento 400), and the schema
 * (`GET /rest/<scope>/schema`) lists its bracketed query parameters. Required, as in Magento:
 * `?searchCriteria=` alone asks for everything (one page of it).
 */
import Joi from 'joi';
import type { ParameterSpec } from '../../contract/Contract.js';
import { parseSearchCriteria } from './parseSearchCriteria.js';
import type { SearchFields } from './SearchCriteria.js';

export const SEARCH_CRITERIA_META = 'searchCriteria';

export interface SearchCriteriaMeta {
  readonly [SEARCH_CRITERIA_META]: SearchFields;
}

export function searchCriteriaParameter(fields: SearchFields, description?: string): ParameterSpec {
  return {
    name: 'searchCriteria',
    // The client names it `searchCriteria` (a missing one is asked for by that name).
    aliases: ['searchCriteria'],
    schema: Joi.any()
      .custom((value: unknown) => parseSearchCriteria(value, fields))
      .meta({ [SEARCH_CRITERIA_META]: fields } satisfies SearchCriteriaMeta)
      .required(),
    description: description ?? 'Magento search criteria: filter groups, sort orders, pageSize, currentPage',
  };
}

/** The fields of a searchCriteriaParameter() schema, or undefined for any other parameter. */
export function searchCriteriaFields(schema: Joi.Schema): SearchFields | undefined {
  const metas = (schema.$_terms as { metas?: unknown[] }).metas ?? [];
  for (const meta of metas) {
    if (meta && typeof meta === 'object' && SEARCH_CRITERIA_META in meta)
      return (meta as SearchCriteriaMeta)[SEARCH_CRITERIA_META];
  }
  return undefined;
}
