import { defineContract, Joi } from '#framework';
import type {
  BulkOperationsStatusInterface,
  BulkStatusCode,
  DetailedBulkOperationsStatusInterface,
} from './Data/BulkStatusInterface.js';

/**
 * Status of a bulk (Magento's BulkStatusInterface as its web API serves it). A bulk is visible
 * only to the caller that created it: anyone else gets NoSuchEntityException, as if it did not exist.
 */
export interface BulkStatusInterface {
  getBulkShortStatus(bulkUuid: string): Promise<BulkOperationsStatusInterface>;
  getBulkDetailedStatus(bulkUuid: string): Promise<DetailedBulkOperationsStatusInterface>;
  /** How many operations of the bulk have this status (1 to 5). */
  getOperationsCountByBulkIdAndStatus(bulkUuid: string, status: number): Promise<number>;
  /**
   * Magento's getBulkStatus (no web route, as in Magento): 0 not started (every operation open),
   * 1 in progress while any operation is open or waiting for a retry, 2 finished successfully
   * (every one complete), 3 finished with failure. Unlike Magento (magento/magento2#36911), a
   * failed operation does not finish a bulk whose other operations are still open.
   */
  getBulkStatus(bulkUuid: string): Promise<BulkStatusCode>;
}

const bulkUuid = Joi.string().max(64).required();

export const BulkStatusInterface = defineContract<BulkStatusInterface>(
  'Dispensary\\AsynchronousOperations\\Api\\BulkStatusInterface',
  {
    getBulkShortStatus: {
      params: [{ name: 'bulkUuid', schema: bulkUuid }],
      description: 'Operations of a bulk with their status',
    },
    getBulkDetailedStatus: {
      params: [{ name: 'bulkUuid', schema: bulkUuid }],
      description: 'Operations of a bulk with their status and results',
    },
    getOperationsCountByBulkIdAndStatus: {
      params: [
        { name: 'bulkUuid', schema: bulkUuid },
        { name: 'status', schema: Joi.number().integer().min(1).max(5).required() },
      ],
      description: 'Number of operations of a bulk with a status',
    },
    getBulkStatus: {
      params: [{ name: 'bulkUuid', schema: bulkUuid }],
      description:
        'The status of a bulk: 0 not started, 1 in progress, 2 finished successfully, 3 finished with failure',
    },
  },
);
