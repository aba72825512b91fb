/**
 * How `GET /rest/<scope>/schema` describes a search criteria parameter: Magento's own Swagger lists
 * the bracketed query parameters one by one (index 0 standing for any index), and so does this,
 * with the fields the repository allows and the condition types.
 */
import { CONDITION_TYPES, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type SearchFields } from './SearchCriteria.js';

export function searchCriteriaQueryParameters(fields: SearchFields): Record<string, unknown>[] {
  const names = Object.keys(fields);
  const filter = 'searchCriteria[filterGroups][0][filters][0]';
  return [
    {
      name: `${filter}[field]`,
      in: 'query',
      type: 'string',
      enum: names,
      description: 'Field to filter by; filters of one group are ORed, groups are ANDed',
    },
    {
      name: `${filter}[value]`,
      in: 'query',
      type: 'string',
      description: 'Value; comma-separated for in/nin; % and _ are wildcards for like',
    },
    { name: `${filter}[conditionType]`, in: 'query', type: 'string', enum: [...CONDITION_TYPES], default: 'eq' },
    { name: 'searchCriteria[sortOrders][0][field]', in: 'query', type: 'string', enum: names },
    {
      name: 'searchCriteria[sortOrders][0][direction]',
      in: 'query',
      type: 'string',
      enum: ['ASC', 'DESC'],
      default: 'DESC',
    },
    {
      name: 'searchCriteria[pageSize]',
      in: 'query',
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
    },
    { name: 'searchCriteria[currentPage]', in: 'query', type: 'integer', minimum: 1, default: 1 },
    {
      name: 'searchCriteria',
      in: 'query',
      type: 'string',
      required: false,
      description: 'Send `searchCriteria=` alone for no filters',
      'x-fields': fields,
    },
  ];
}
