import type { Caller } from '#framework';

export const BULK_TABLE = 'magento_bulk';
export const OPERATION_TABLE = 'magento_operation';
/** Rows per insert statement (SQLite refuses more than 500 terms in knex's compound insert). */
export const INSERT_CHUNK = 100;

/** Magento's UserContextInterface user types. */
export const USER_TYPE = { integration: 1, admin: 2, customer: 3, guest: 4 } as const;

export function userTypeOf(caller: Caller): number {
  return USER_TYPE[caller.type] ?? USER_TYPE.guest;
}

export interface BulkRow {
  id: number;
  uuid: string;
  user_type: number;
  user_id: number | null;
  description: string | null;
  operation_count: number;
  start_time: string;
}

export interface OperationRow {
  id: number;
  bulk_uuid: string;
  operation_key: number;
  topic_name: string;
  serialized_data: string | null;
  result_serialized_data: string | null;
  status: number;
  error_code: number | null;
  result_message: string | null;
}
