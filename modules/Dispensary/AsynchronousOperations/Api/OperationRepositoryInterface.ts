import {
  defineContract,
  searchCriteriaParameter,
  type SearchCriteria,
  type SearchFields,
  type SearchResults,
} from '#framework';
import type { OperationInterface } from './Data/OperationInterface.js';

/**
 * The operation search (Magento's OperationRepositoryInterface::getList, `GET /V1/bulk`): the
 * operations of the caller's own bulks matching search criteria. Another caller's operations are
 * never listed, as the status routes never show another caller's bulk.
 */
export interface OperationRepositoryInterface {
  getList(searchCriteria: SearchCriteria): Promise<SearchResults<OperationInterface>>;
}

/** What the operation search filters and sorts by; `start_time` is the bulk's (Magento joins it too). */
export const OPERATION_SEARCH_FIELDS: SearchFields = {
  id: 'integer',
  bulk_uuid: 'text',
  topic_name: 'text',
  status: 'integer',
  error_code: 'integer',
  result_message: 'text',
  start_time: 'timestamp',
};

export const OperationRepositoryInterface = defineContract<OperationRepositoryInterface>(
  'Dispensary\\AsynchronousOperations\\Api\\OperationRepositoryInterface',
  {
    getList: {
      params: [searchCriteriaParameter(OPERATION_SEARCH_FIELDS)],
      description: "Operations of the caller's own bulks matching search criteria",
    },
  },
);
