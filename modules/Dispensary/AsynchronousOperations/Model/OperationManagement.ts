import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  OperationStatus,
  type OperationManagementInterface,
  type OperationRequest,
  type OperationStatusCode,
  type StoredOperation,
} from '#framework';
import { OPERATION_TABLE, type OperationRow } from './tables.js';

const RUNNABLE = [OperationStatus.OPEN, OperationStatus.RETRIABLY_FAILED];

/** The consumer's side of an operation row. start/complete write through the unit of work's transaction. */
@injectable()
export class OperationManagement implements OperationManagementInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async load(operationId: number): Promise<StoredOperation | null> {
    const row = (await this.connection.knex(OPERATION_TABLE).where('id', operationId).first()) as OperationRow | undefined;
    if (!row) return null;
    return {
      id: row.id,
      bulkUuid: row.bulk_uuid,
      status: row.status as OperationStatusCode,
      request: row.serialized_data ? (JSON.parse(row.serialized_data) as OperationRequest) : null,
    };
  }

  async start(operationId: number): Promise<boolean> {
    // The first write of the transaction: it locks the row, so a second delivery of the same
    // operation waits here until the first commits, and then finds it no longer runnable.
    const changed = await this.connection
      .get()(OPERATION_TABLE)
      .where('id', operationId)
      .whereIn('status', RUNNABLE)
      .update({ started_count: this.connection.knex.raw('started_count + 1') });
    return changed === 1;
  }

  async complete(operationId: number, result: unknown, message: string): Promise<void> {
    await this.connection
      .get()(OPERATION_TABLE)
      .where('id', operationId)
      .update({
        status: OperationStatus.COMPLETE,
        result_serialized_data: result === undefined ? null : JSON.stringify(result),
        result_message: message,
        error_code: null,
      });
  }

  async fail(operationId: number, status: OperationStatusCode, message: string, errorCode: number | null): Promise<void> {
    await this.connection
      .knex(OPERATION_TABLE)
      .where('id', operationId)
      .whereIn('status', RUNNABLE)
      .update({ status, result_message: message.slice(0, 60_000), error_code: errorCode });
  }
}
