/** Magento's operation statuses (`Magento\Framework\Bulk\OperationInterface`). */
export const OperationStatus = {
  COMPLETE: 1,
  RETRIABLY_FAILED: 2,
  NOT_RETRIABLY_FAILED: 3,
  OPEN: 4,
  REJECTED: 5,
} as const;

export type OperationStatusCode = (typeof OperationStatus)[keyof typeof OperationStatus];
