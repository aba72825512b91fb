/**
 * One operation as `GET /V1/bulk?searchCriteria...` lists it (Magento's
 * `AsynchronousOperations\Api\Data\OperationInterface`, in its getters' order).
 */
export interface OperationInterface {
  /** The element's position in its bulk request (`request_items[].id`), as in detailed-status. */
  id: number;
  bulkUuid: string;
  topicName: string;
  /** The replayable request: route, mapped arguments, store and caller (JSON). */
  serializedData: string | null;
  /** The contract's answer (JSON), once complete. */
  resultSerializedData: string | null;
  status: number;
  resultMessage: string | null;
  errorCode: number | null;
}
