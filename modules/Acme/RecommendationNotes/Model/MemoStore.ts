import { ConnectionProvider, FrameworkServices, inject, injectable } from '#framework';

export const MEMO_TABLE = 'acme_recommendation_memo';

export interface Memo {
  practitioner_memo: string | null;
  item_changes: number;
}

/**
 * The module's own table (migrations/): one row per recommendation that has a memo or changed
 * items. Through the ConnectionProvider, so its writes join the request's unit of work.
 */
@injectable()
export class MemoStore {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async read(recommendationId: string): Promise<Memo> {
    const row = (await this.connection.get()(MEMO_TABLE).where({ recommendation_id: recommendationId }).first()) as
      { memo: string | null; item_changes: number | string } | undefined;
    return { practitioner_memo: row?.memo ?? null, item_changes: Number(row?.item_changes ?? 0) };
  }

  async saveMemo(recommendationId: string, memo: string | null): Promise<void> {
    await this.connection
      .get()(MEMO_TABLE)
      .insert({ recommendation_id: recommendationId, memo, item_changes: 0 })
      .onConflict('recommendation_id')
      .merge(['memo']);
  }

  async countChanges(recommendationId: string, changes: number): Promise<void> {
    const db = this.connection.get();
    await db(MEMO_TABLE)
      .insert({ recommendation_id: recommendationId, memo: null, item_changes: 0 })
      .onConflict('recommendation_id')
      .ignore();
    await db(MEMO_TABLE).where({ recommendation_id: recommendationId }).increment('item_changes', changes);
  }
}
