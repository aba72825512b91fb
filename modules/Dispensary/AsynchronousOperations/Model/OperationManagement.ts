import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  OperationStatus,
  type OperationCompletion,
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
    const row = (await this.connection.knex(OPERATION_TABLE).where('id', operationId).first()) as
      OperationRow | undefined;
    return row ? stored(row) : null;
  }

  async loadMany(operationIds: readonly number[]): Promise<StoredOperation[]> {
    if (operationIds.length === 0) return [];
    const rows = (await this.connection.knex(OPERATION_TABLE).whereIn('id', [...operationIds])) as OperationRow[];
    return rows.map(stored);
  }

  async startMany(operationIds: readonly number[]): Promise<number> {
    if (operationIds.length === 0) return 0;
    // As start(), for a whole batch: the transaction's first write locks every row of it.
    return this.connection
      .get()(OPERATION_TABLE)
      .whereIn('id', [...operationIds])
      .whereIn('status', RUNNABLE)
      .update({ started_count: this.connection.knex.raw('started_count + 1') });
  }

  async completeMany(completions: readonly OperationCompletion[]): Promise<void> {
    if (completions.length === 0) return;
    const knex = this.connection.knex;
    // One UPDATE for the batch: each row's own message and result picked by CASE on its id.
    const pick = (value: (c: OperationCompletion) => string | null) =>
      knex.raw(`CASE ?? ${completions.map(() => 'WHEN ? THEN ?').join(' ')} END`, [
        'id',
        ...completions.flatMap((c) => [c.operationId, value(c)]),
      ]);
    // Operations of one route share their message: one value, not a CASE of them.
    const message = completions[0]!.message;
    const oneMessage = completions.every((c) => c.message === message);
    await this.connection
      .get()(OPERATION_TABLE)
      .whereIn(
        'id',
        completions.map((c) => c.operationId),
      )
      .update({
        status: OperationStatus.COMPLETE,
        result_serialized_data: pick((c) => (c.result === undefined ? null : JSON.stringify(c.result))),
        result_message: oneMessage ? message : pick((c) => c.message),
        error_code: null,
      });
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

  async fail(
    operationId: number,
    status: OperationStatusCode,
    message: string,
    errorCode: number | null,
  ): Promise<void> {
    // Outside a unit of work on its own; inside a batch's, with the batch.
    await this.connection
      .get()(OPERATION_TABLE)
      .where('id', operationId)
      .whereIn('status', RUNNABLE)
      .update({ status, result_message: message.slice(0, 60_000), error_code: errorCode });
  }
}

function stored(row: OperationRow): StoredOperation {
  return {
    id: row.id,
    bulkUuid: row.bulk_uuid,
    status: row.status as OperationStatusCode,
    request: row.serialized_data ? (JSON.parse(row.serialized_data) as OperationRequest) : null,
  };
}
