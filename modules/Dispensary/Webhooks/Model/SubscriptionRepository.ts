import { ConnectionProvider, FrameworkServices, inject, injectable, nowTimestamp } from '#framework';
import type { WebhookData } from '../Api/WebhookManagementInterface.js';
import { hookKey, type Hook } from './Hook.js';

/** Integration's Encryptor (AES-256-GCM under CRYPT_KEY), asked for by name: only its two methods are used. */
export interface SecretCipher {
  encrypt(plain: string, context: string): string;
  decrypt(stored: string, context: string): string;
}

const TABLE = 'webhook_subscription';

/** Run-time subscriptions (`webhook_subscription`); secrets encrypted, bound to the hook's identity. */
@injectable()
export class SubscriptionRepository {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\Encryptor') private readonly cipher: SecretCipher,
  ) {}

  async save(definition: WebhookData, secret: string): Promise<void> {
    const db = this.connection.get();
    const identity = {
      webhook_method: definition.webhook_method,
      webhook_type: definition.webhook_type,
      batch_name: definition.batch_name,
      hook_name: definition.hook_name,
    };
    const row = { definition: JSON.stringify(definition), secret: this.cipher.encrypt(secret, context(definition)) };
    // Replace: one statement per dialect would need an upsert per driver; delete + insert in the request's transaction is the same.
    await db(TABLE).where(identity).delete();
    await db(TABLE).insert({ ...identity, ...row, created_at: nowTimestamp(new Date()) });
  }

  async delete(
    identity: Pick<WebhookData, 'webhook_method' | 'webhook_type' | 'batch_name' | 'hook_name'>,
  ): Promise<boolean> {
    const { webhook_method, webhook_type, batch_name, hook_name } = identity;
    return (
      (await this.connection.get()(TABLE).where({ webhook_method, webhook_type, batch_name, hook_name }).delete()) > 0
    );
  }

  async all(): Promise<Hook[]> {
    const rows = (await this.connection.get()(TABLE).select('definition', 'secret').orderBy('subscription_id')) as {
      definition: string;
      secret: string;
    }[];
    return rows.map((row) => {
      const definition = JSON.parse(row.definition) as WebhookData;
      return { ...definition, secret: this.cipher.decrypt(row.secret, context(definition)), source: 'api' };
    });
  }
}

function context(
  definition: Pick<WebhookData, 'webhook_method' | 'webhook_type' | 'batch_name' | 'hook_name'>,
): string {
  return `webhook_subscription:${hookKey(definition)}`;
}
