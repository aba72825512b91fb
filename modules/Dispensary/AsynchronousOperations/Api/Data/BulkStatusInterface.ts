/** One operation in `GET /V1/bulk/:bulkUuid/status` (Magento's SummaryOperationStatusInterface). */
export interface SummaryOperationStatusInterface {
  /** The element's position in the request (`request_items[].id`). */
  id: number;
  status: number;
  resultMessage: string | null;
  errorCode: number | null;
}

/** One operation in `.../detailed-status` (Magento's OperationInterface). */
export interface DetailedOperationStatusInterface extends SummaryOperationStatusInterface {
  bulkUuid: string;
  topicName: string;
  resultSerializedData: string | null;
}

/** Counts by status (Magento 2.4's `operations_counter`). */
export interface OperationsCounterInterface {
  operationsTotal: number;
  open: number;
  operationsSuccessful: number;
  totalFailed: number;
  failedNotRetriable: number;
  failedRetriable: number;
  rejected: number;
}

/** Magento's bulk statuses (`Magento\Framework\Bulk\BulkSummaryInterface` constants). */
export const BulkStatusCode = {
  NOT_STARTED: 0,
  IN_PROGRESS: 1,
  FINISHED_SUCCESSFULLY: 2,
  FINISHED_WITH_FAILURE: 3,
} as const;
export type BulkStatusCode = (typeof BulkStatusCode)[keyof typeof BulkStatusCode];

/** Magento's BulkSummaryInterface fields. user_type: 1 integration, 2 admin, 4 guest. */
export interface BulkSummaryInterface {
  bulkId: string;
  description: string | null;
  startTime: string;
  userId: number | null;
  userType: number;
  operationCount: number;
  /**
   * The bulk's status (Magento's getBulkStatus, which its status routes do not answer): in
   * progress while any operation is still to run, even when one has failed already.
   */
  status: BulkStatusCode;
  operationsCounter: OperationsCounterInterface;
}

export interface BulkOperationsStatusInterface extends BulkSummaryInterface {
  operationsList: SummaryOperationStatusInterface[];
}

export interface DetailedBulkOperationsStatusInterface extends BulkSummaryInterface {
  operationsList: DetailedOperationStatusInterface[];
}
