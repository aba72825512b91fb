import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  requestContext,
  runSearch,
  searchCriteriaOutput,
  type SearchColumn,
  type SearchCriteria,
  type SearchResults,
} from '#framework';
import type { OperationInterface } from '../Api/Data/OperationInterface.js';
import { OPERATION_SEARCH_FIELDS, type OperationRepositoryInterface } from '../Api/OperationRepositoryInterface.js';
import { BULK_TABLE, OPERATION_TABLE, userTypeOf, type OperationRow } from './tables.js';

const COLUMNS = [
  'operation_key',
  'bulk_uuid',
  'topic_name',
  'serialized_data',
  'result_serialized_data',
  'status',
  'result_message',
  'error_code',
].map((c) => `${OPERATION_TABLE}.${c}`);

const SEARCH_COLUMNS: Record<string, SearchColumn> = {
  id: { column: `${OPERATION_TABLE}.operation_key` },
  bulk_uuid: { column: `${OPERATION_TABLE}.bulk_uuid` },
  topic_name: { column: `${OPERATION_TABLE}.topic_name` },
  status: { column: `${OPERATION_TABLE}.status` },
  error_code: { column: `${OPERATION_TABLE}.error_code`, nullable: true },
  result_message: { column: `${OPERATION_TABLE}.result_message`, nullable: true },
  start_time: { column: `${BULK_TABLE}.start_time` },
};

@injectable()
export class OperationRepository implements OperationRepositoryInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async getList(searchCriteria: SearchCriteria): Promise<SearchResults<OperationInterface>> {
    const caller = requestContext.caller();
    const query = this.connection
      .get()(OPERATION_TABLE)
      .join(BULK_TABLE, `${BULK_TABLE}.uuid`, `${OPERATION_TABLE}.bulk_uuid`)
      .where({ [`${BULK_TABLE}.user_type`]: userTypeOf(caller), [`${BULK_TABLE}.user_id`]: caller.id })
      .select(COLUMNS);
    const { rows, total } = await runSearch<Omit<OperationRow, 'id'>>(query, searchCriteria, {
      fields: OPERATION_SEARCH_FIELDS,
      columns: SEARCH_COLUMNS,
      dialect: this.connection.dialect,
      tieBreaker: `${OPERATION_TABLE}.id`,
    });
    return {
      items: rows.map((op) => ({
        id: op.operation_key,
        bulkUuid: op.bulk_uuid,
        topicName: op.topic_name,
        serializedData: op.serialized_data,
        resultSerializedData: op.result_serialized_data,
        status: op.status,
        resultMessage: op.result_message,
        errorCode: op.error_code,
      })),
      search_criteria: searchCriteriaOutput(searchCriteria),
      total_count: total,
    };
  }
}
