import Joi from 'joi';
import { defineContract } from '../contract/Contract.js';
import type { Caller, Store } from '../context/RequestContext.js';
import type { OperationStatusCode } from './OperationStatus.js';

/** What a consumer needs to replay one request: the route, its mapped arguments, and who asked where. */
export interface OperationRequest {
  readonly method: string;
  /** The route's webapi.xml url, e.g. `/V1/dispensary/recommendation/:recommendationId/item`. */
  readonly url: string;
  readonly args: readonly unknown[];
  readonly store: Store;
  readonly caller: Caller;
}

export interface OperationToSchedule {
  /** Position in the request (`request_items[].id`). */
  readonly key: number;
  /** 4 (open: published) or 5 (rejected: recorded, never published). */
  readonly status: 4 | 5;
  readonly request: OperationRequest | null;
  readonly dataHash: string | null;
  readonly errorMessage?: string;
  readonly errorCode?: number;
  /** The entity the operation touches (e.g. `recommendationId=42`): its messages are consumed in order, one at a time. */
  readonly partitionKey?: string | null;
}

export interface BulkToSchedule {
  readonly uuid: string;
  readonly topic: string;
  readonly description: string;
  readonly caller: Caller;
  readonly operations: readonly OperationToSchedule[];
}

/**
 * Records a bulk and its operations and publishes the open ones, atomically from the client's
 * view: when the queue refuses, nothing is kept and the call throws (503). The asynchronous
 * operations module serves it; without one, `/async/...` routes answer 404.
 */
export interface BulkManagementInterface {
  scheduleBulk(bulk: BulkToSchedule): Promise<void>;
}

export const BulkManagementInterface = defineContract<BulkManagementInterface>(
  'Framework\\Bulk\\BulkManagementInterface',
  {
    scheduleBulk: { params: [{ name: 'bulk', schema: Joi.object().required() }] },
  },
);

export interface StoredOperation {
  readonly id: number;
  readonly bulkUuid: string;
  readonly status: OperationStatusCode;
  readonly request: OperationRequest | null;
}

/**
 * The consumer's side: load an operation, take it inside the unit of work (false when an earlier
 * delivery already finished it), and record how it ended. `start` and `complete` write through
 * the current transaction, so the operation is marked complete together with the contract call's
 * own writes, or not at all.
 */
export interface OperationManagementInterface {
  load(operationId: number): Promise<StoredOperation | null>;
  start(operationId: number): Promise<boolean>;
  complete(operationId: number, result: unknown, message: string): Promise<void>;
  fail(operationId: number, status: OperationStatusCode, message: string, errorCode: number | null): Promise<void>;
  /** A batch's operations in one statement (those that exist). */
  loadMany(operationIds: readonly number[]): Promise<StoredOperation[]>;
  /** Takes a batch's operations in one statement; answers how many were still runnable and are now taken. */
  startMany(operationIds: readonly number[]): Promise<number>;
  /** Marks a batch's operations complete in one statement, each with its result and message. */
  completeMany(completions: readonly OperationCompletion[]): Promise<void>;
}

export interface OperationCompletion {
  readonly operationId: number;
  readonly result: unknown;
  readonly message: string;
}

export const OperationManagementInterface = defineContract<OperationManagementInterface>(
  'Framework\\Bulk\\OperationManagementInterface',
  {
    load: { params: [{ name: 'operationId', schema: Joi.number().required() }] },
    start: { params: [{ name: 'operationId', schema: Joi.number().required() }] },
    complete: {
      params: [
        { name: 'operationId', schema: Joi.number().required() },
        { name: 'result', schema: Joi.any() },
        { name: 'message', schema: Joi.string().required() },
      ],
    },
    loadMany: { params: [{ name: 'operationIds', schema: Joi.array().items(Joi.number()).required() }] },
    startMany: { params: [{ name: 'operationIds', schema: Joi.array().items(Joi.number()).required() }] },
    completeMany: { params: [{ name: 'completions', schema: Joi.array().required() }] },
    fail: {
      params: [
        { name: 'operationId', schema: Joi.number().required() },
        { name: 'status', schema: Joi.number().required() },
        { name: 'message', schema: Joi.string().required() },
        { name: 'errorCode', schema: Joi.number().allow(null) },
      ],
    },
  },
);
