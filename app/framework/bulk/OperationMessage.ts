/** The body of an operation's queue message: which operation to run (the rest is in its row). */
export interface OperationMessage {
  readonly operation_id: number;
  readonly bulk_uuid: string;
  readonly topic_name: string;
  /** When it was published (ms): a message whose operation is not visible yet is retried for a while. */
  readonly published_at: number;
}

export function encodeOperationMessage(message: OperationMessage): string {
  return JSON.stringify(message);
}

/** The message, or null when the body is not one (a poison message). */
export function decodeOperationMessage(body: string): OperationMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const m = value as Partial<OperationMessage> | null;
  if (!m || typeof m !== 'object') return null;
  if (!Number.isSafeInteger(m.operation_id) || typeof m.bulk_uuid !== 'string' || typeof m.topic_name !== 'string')
    return null;
  return {
    operation_id: m.operation_id!,
    bulk_uuid: m.bulk_uuid,
    topic_name: m.topic_name,
    published_at: Number(m.published_at) || 0,
  };
}
