import {
  ConnectionProvider,
  encodeOperationMessage,
  FrameworkServices,
  inject,
  injectable,
  nowTimestamp,
  type BulkManagementInterface,
  type BulkToSchedule,
  type QueueConnection,
} from '#framework';
import { BULK_TABLE, INSERT_CHUNK, OPERATION_TABLE, userTypeOf } from './tables.js';

/**
 * Records a bulk and its operations and publishes the open ones in one transaction: on the `db`
 * queue the messages are rows of the same transaction; on RabbitMQ the publish (with publisher
 * confirms) happens before the commit, and a broker that refuses rolls everything back, so the
 * client's 503 leaves nothing recorded. Should the commit itself fail after a confirmed publish,
 * the consumer finds no operation for the message and drops it after a grace period.
 */
@injectable()
export class BulkManagement implements BulkManagementInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(FrameworkServices.QueueConnection) private readonly queue: QueueConnection,
  ) {}

  async scheduleBulk(bulk: BulkToSchedule): Promise<void> {
    await this.connection.knex.transaction(async (trx) => {
      await trx(BULK_TABLE).insert({
        uuid: bulk.uuid,
        user_type: userTypeOf(bulk.caller),
        user_id: bulk.caller.id,
        description: bulk.description.slice(0, 255),
        operation_count: bulk.operations.length,
        start_time: nowTimestamp(),
      });
      const rows = bulk.operations.map((op) => ({
        bulk_uuid: bulk.uuid,
        operation_key: op.key,
        topic_name: bulk.topic,
        serialized_data: op.request ? JSON.stringify(op.request) : null,
        status: op.status,
        error_code: op.errorCode ?? null,
        result_message: op.errorMessage ?? null,
      }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await trx(OPERATION_TABLE).insert(rows.slice(i, i + INSERT_CHUNK));
      const open = (await trx(OPERATION_TABLE)
        .select('id', 'operation_key')
        .where({ bulk_uuid: bulk.uuid, status: 4 })
        .orderBy('operation_key')) as {
        id: number;
        operation_key: number;
      }[];
      const publishedAt = Date.now();
      const keys = new Map(bulk.operations.map((op) => [op.key, op.partitionKey ?? null]));
      const messages = open.map((op) => ({
        body: encodeOperationMessage({
          operation_id: op.id,
          bulk_uuid: bulk.uuid,
          topic_name: bulk.topic,
          published_at: publishedAt,
        }),
        partitionKey: keys.get(Number(op.operation_key)) ?? null,
      }));
      await this.queue.publish(bulk.topic, messages, trx);
    });
  }
}
