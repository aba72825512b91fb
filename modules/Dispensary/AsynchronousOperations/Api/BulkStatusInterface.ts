import { defineContract, Joi } from '#framework';
import type { BulkOperationsStatusInterface, DetailedBulkOperationsStatusInterface } from './Data/BulkStatusInterface.js';

/**
 * Status of a bulk (Magento's BulkStatusInterface as its web API serves it). A bulk is visible
 * only to the caller that created it: anyone else gets NoSuchEntityException, as if it did not exist.
 */
export interface BulkStatusInterface {
  getBulkShortStatus(bulkUuid: string): Promise<BulkOperationsStatusInterface>;
  getBulkDetailedStatus(bulkUuid: string): Promise<DetailedBulkOperationsStatusInterface>;
  /** How many operations of the bulk have this status (1 to 5). */
  getOperationsCountByBulkIdAndStatus(bulkUuid: string, status: number): Promise<number>;
}

const bulkUuid = Joi.string().max(64).required();

export const BulkStatusInterface = defineContract<BulkStatusInterface>('Dispensary\\AsynchronousOperations\\Api\\BulkStatusInterface', {
  getBulkShortStatus: { params: [{ name: 'bulkUuid', schema: bulkUuid }], description: 'Operations of a bulk with their status' },
  getBulkDetailedStatus: { params: [{ name: 'bulkUuid', schema: bulkUuid }], description: 'Operations of a bulk with their status and results' },
  getOperationsCountByBulkIdAndStatus: {
    params: [
      { name: 'bulkUuid', schema: bulkUuid },
      { name: 'status', schema: Joi.number().integer().min(1).max(5).required() },
    ],
    description: 'Number of operations of a bulk with a status',
  },
});
