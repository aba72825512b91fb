import { ConnectionProvider, FrameworkServices, inject, injectable, nowTimestamp } from '#framework';
import type { EventSubscriptionData } from '../Api/EventSubscriptionManagementInterface.js';
import type { Subscription } from './Subscription.js';

interface SecretCipher {
  encrypt(plain: string, context: string): string;
  decrypt(stored: string, context: string): string;
}

const TABLE = 'event_subscription';

/** Run-time event subscriptions; secrets encrypted (Integration's Encryptor), bound to the name. */
@injectable()
export class SubscriptionRepository {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\Encryptor') private readonly cipher: SecretCipher,
  ) {}

  async save(definition: EventSubscriptionData, secret: string): Promise<void> {
    const db = this.connection.get();
    await db(TABLE).where({ name: definition.name }).delete();
    await db(TABLE).insert({
      name: definition.name,
      definition: JSON.stringify(definition),
      secret: this.cipher.encrypt(secret, `event_subscription:${definition.name}`),
      created_at: nowTimestamp(new Date()),
    });
  }

  /** The run-time subscription of that name, or undefined. */
  async get(name: string): Promise<Subscription | undefined> {
    return (await this.all()).find((subscription) => subscription.name === name);
  }

  async delete(name: string): Promise<boolean> {
    return (await this.connection.get()(TABLE).where({ name }).delete()) > 0;
  }

  async all(): Promise<Subscription[]> {
    const rows = (await this.connection.get()(TABLE).select('definition', 'secret').orderBy('subscription_id')) as {
      definition: string;
      secret: string;
    }[];
    return rows.map((row) => {
      const definition = JSON.parse(row.definition) as EventSubscriptionData;
      return {
        ...definition,
        secret: this.cipher.decrypt(row.secret, `event_subscription:${definition.name}`),
        source: 'api',
      };
    });
  }
}
