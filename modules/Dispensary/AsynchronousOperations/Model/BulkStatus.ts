import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  NoSuchEntityException,
  OperationStatus,
  requestContext,
} from '#framework';
import type { BulkStatusInterface } from '../Api/BulkStatusInterface.js';
import {
  BulkStatusCode,
  type BulkOperationsStatusInterface,
  type BulkSummaryInterface,
  type DetailedBulkOperationsStatusInterface,
  type OperationsCounterInterface,
} from '../Api/Data/BulkStatusInterface.js';
import { BULK_TABLE, OPERATION_TABLE, userTypeOf, type BulkRow, type OperationRow } from './tables.js';

@injectable()
export class BulkStatus implements BulkStatusInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async getBulkShortStatus(bulkUuid: string): Promise<BulkOperationsStatusInterface> {
    const { summary, operations } = await this.load(bulkUuid);
    return {
      ...summary,
      operationsList: operations.map((op) => ({
        id: op.operation_key,
        status: op.status,
        resultMessage: op.result_message,
        errorCode: op.error_code,
      })),
    };
  }

  async getBulkDetailedStatus(bulkUuid: string): Promise<DetailedBulkOperationsStatusInterface> {
    const { summary, operations } = await this.load(bulkUuid);
    return {
      ...summary,
      operationsList: operations.map((op) => ({
        id: op.operation_key,
        bulkUuid: op.bulk_uuid,
        topicName: op.topic_name,
        status: op.status,
        resultSerializedData: op.result_serialized_data,
        resultMessage: op.result_message,
        errorCode: op.error_code,
      })),
    };
  }

  async getOperationsCountByBulkIdAndStatus(bulkUuid: string, status: number): Promise<number> {
    await this.bulk(bulkUuid);
    const row = (await this.connection
      .get()(OPERATION_TABLE)
      .where({ bulk_uuid: bulkUuid, status })
      .count({ n: '*' })
      .first()) as { n: number | string };
    return Number(row.n);
  }

  async getBulkStatus(bulkUuid: string): Promise<BulkStatusCode> {
    const { summary } = await this.load(bulkUuid);
    return summary.status;
  }

  /** The caller's own bulk, or "not found" for every other caller. */
  private async bulk(bulkUuid: string): Promise<BulkRow> {
    const caller = requestContext.caller();
    const row = (await this.connection.get()(BULK_TABLE).where('uuid', bulkUuid).first()) as BulkRow | undefined;
    if (!row || row.user_type !== userTypeOf(caller) || row.user_id !== caller.id) {
      throw new NoSuchEntityException('Bulk uuid %bulkUuid not exist', { bulkUuid });
    }
    return row;
  }

  private async load(bulkUuid: string): Promise<{ summary: BulkSummaryInterface; operations: OperationRow[] }> {
    const bulk = await this.bulk(bulkUuid);
    const operations = (await this.connection
      .get()(OPERATION_TABLE)
      .where('bulk_uuid', bulkUuid)
      .orderBy('operation_key')) as OperationRow[];
    return {
      summary: {
        bulkId: bulk.uuid,
        description: bulk.description,
        startTime: bulk.start_time,
        userId: bulk.user_id,
        userType: bulk.user_type,
        operationCount: bulk.operation_count,
        status: bulkStatus(operations),
        operationsCounter: countByStatus(operations, bulk.operation_count),
      },
      operations,
    };
  }
}

/**
 * Magento's getBulkStatus, but a bulk stays in progress until no operation is left to run: open
 * (4), or failed retriably (2), whose message is back on the queue. Magento counts a failure as
 * the end while others are still open (magento/magento2#36911).
 */
export function bulkStatus(operations: readonly Pick<OperationRow, 'status'>[]): BulkStatusCode {
  const pending = operations.filter(
    (op) => op.status === OperationStatus.OPEN || op.status === OperationStatus.RETRIABLY_FAILED,
  ).length;
  if (operations.every((op) => op.status === OperationStatus.OPEN)) return BulkStatusCode.NOT_STARTED;
  if (pending > 0) return BulkStatusCode.IN_PROGRESS;
  if (operations.every((op) => op.status === OperationStatus.COMPLETE)) return BulkStatusCode.FINISHED_SUCCESSFULLY;
  return BulkStatusCode.FINISHED_WITH_FAILURE;
}

function countByStatus(operations: readonly OperationRow[], total: number): OperationsCounterInterface {
  const count = (status: number) => operations.filter((op) => op.status === status).length;
  const failedRetriable = count(OperationStatus.RETRIABLY_FAILED);
  const failedNotRetriable = count(OperationStatus.NOT_RETRIABLY_FAILED);
  return {
    operationsTotal: total,
    open: count(OperationStatus.OPEN),
    operationsSuccessful: count(OperationStatus.COMPLETE),
    totalFailed: failedRetriable + failedNotRetriable,
    failedNotRetriable,
    failedRetriable,
    rejected: count(OperationStatus.REJECTED),
  };
}
