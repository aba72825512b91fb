import { ConnectionProvider, FrameworkServices, inject, injectable, nowTimestamp, preparedQuery } from '#framework';
import type { EventSubscriptionData } from '../Api/EventSubscriptionManagementInterface.js';
import { withDefaults, type Subscription } from './Subscription.js';

interface SecretCipher {
  encrypt(plain: string, context: string): string;
  decrypt(stored: string, context: string): string;
}

const TABLE = 'event_subscription';
const DISABLED = 'event_subscription_disabled';

type DisabledRow = { name: string; reason: string; disabled_at: number | string };

// Performance (issue 28): the outbox hook reads both tables on every dispatched event (no cache,
// by design): in one statement (a UNION ALL, one round trip), compiled once (PreparedQuery) rather
// than built and compiled by knex per event. `kind` 0 rows are subscriptions, 1 disabled names.
type UnionRow = {
  kind: number | string;
  definition: string | null;
  secret: string | null;
  name: string | null;
  reason: string | null;
  disabled_at: number | string | null;
};
const ALL_WITH_DISABLED = preparedQuery<Record<string, never>, UnionRow[]>((db) =>
  db(TABLE)
    .select(
      db.raw('0 as kind'),
      'subscription_id as ord',
      'definition',
      'secret',
      db.raw('null as name'),
      db.raw('null as reason'),
      db.raw('null as disabled_at'),
    )
    .unionAll((union) =>
      union
        .from(DISABLED)
        .select(
          db.raw('1 as kind'),
          db.raw('0 as ord'),
          db.raw('null as definition'),
          db.raw('null as secret'),
          'name',
          'reason',
          'disabled_at',
        ),
    )
    .orderBy([{ column: 'kind' }, { column: 'ord' }]),
);
const ALL_DISABLED = preparedQuery<Record<string, never>, DisabledRow[]>((db) =>
  db(DISABLED).select('name', 'reason', 'disabled_at'),
);

type ByNameRow = { definition: string; secret: string; reason: string | null; disabled_at: number | string | null };
/** Read before every delivery attempt (no cache, by design): compiled once, like the outbox hook's read. */
const BY_NAME = preparedQuery<{ name: string }, ByNameRow | undefined>((db, p) =>
  db(`${TABLE} as s`)
    .leftJoin(`${DISABLED} as d`, 'd.name', 's.name')
    .where('s.name', p('name'))
    .first('s.definition', 's.secret', 'd.reason', 'd.disabled_at'),
);

/**
 * Run-time event subscriptions; secrets encrypted (Integration's Encryptor), bound to the name.
 * Every read goes through `get()`: inside a unit of work it reads in its transaction, so the
 * outbox hook sees exactly the subscriptions committed before the change (no cache).
 */
@injectable()
export class SubscriptionRepository {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\Encryptor') private readonly cipher: SecretCipher,
  ) {}

  /** Adds or replaces the subscription, enabled (a disabled one of that name is enabled again). */
  async save(definition: EventSubscriptionData, secret: string): Promise<void> {
    const db = this.connection.get();
    await db(TABLE).where({ name: definition.name }).delete();
    await db(TABLE).insert({
      name: definition.name,
      definition: JSON.stringify(definition),
      secret: this.cipher.encrypt(secret, `event_subscription:${definition.name}`),
      created_at: nowTimestamp(new Date()),
    });
    await db(DISABLED).where({ name: definition.name }).delete();
  }

  async delete(name: string): Promise<boolean> {
    const db = this.connection.get();
    const removed = (await db(TABLE).where({ name }).delete()) > 0;
    if (removed) await db(DISABLED).where({ name }).delete();
    return removed;
  }

  /**
   * Every run-time subscription, and every disabled name (run-time or io_events.xml), read together
   * in one statement; `secrets: false` skips decrypting them (the outbox hook needs none).
   */
  async allWithDisabled(
    options: { secrets: boolean } = { secrets: true },
  ): Promise<{ stored: Subscription[]; disabled: Map<string, { reason: string; at: number }> }> {
    const stored: Subscription[] = [];
    const disabled = new Map<string, { reason: string; at: number }>();
    for (const row of await this.connection.run(ALL_WITH_DISABLED, {})) {
      if (Number(row.kind) === 0)
        stored.push(this.fromRow({ definition: row.definition!, secret: row.secret! }, options.secrets));
      else disabled.set(row.name!, { reason: row.reason!, at: Number(row.disabled_at) });
    }
    return { stored, disabled };
  }

  /** The run-time subscription of that name with its secret and, when disabled, why (one query: read before every delivery attempt). */
  async byName(name: string): Promise<Subscription | undefined> {
    const row = await this.connection.run(BY_NAME, { name });
    if (!row) return undefined;
    const subscription = this.fromRow(row, true);
    return row.reason === null || row.reason === undefined
      ? subscription
      : { ...subscription, disabled: { reason: row.reason, at: Number(row.disabled_at) } };
  }

  /** The disabled subscriptions (run-time or io_events.xml) by name. */
  async disabled(name?: string): Promise<Map<string, { reason: string; at: number }>> {
    const rows =
      name === undefined
        ? await this.connection.run(ALL_DISABLED, {})
        : ((await this.connection
            .get()(DISABLED)
            .select('name', 'reason', 'disabled_at')
            .where({ name })) as DisabledRow[]);
    return new Map(rows.map((row) => [row.name, { reason: row.reason, at: Number(row.disabled_at) }]));
  }

  /** Disables the subscription of that name (kept if already disabled). */
  async disable(name: string, reason: string): Promise<void> {
    const db = this.connection.get();
    if ((await this.disabled(name)).size > 0) return;
    try {
      await db(DISABLED).insert({ name, reason: reason.slice(0, 255), disabled_at: Date.now() });
    } catch (error) {
      // Another consumer disabled it meanwhile: the same outcome.
      if ((await this.disabled(name)).size === 0) throw error;
    }
  }

  private fromRow(row: { definition: string; secret: string }, secrets: boolean): Subscription {
    const definition = withDefaults(JSON.parse(row.definition) as EventSubscriptionData);
    return {
      ...definition,
      secret: secrets ? this.cipher.decrypt(row.secret, `event_subscription:${definition.name}`) : '',
      source: 'api',
    };
  }
}
