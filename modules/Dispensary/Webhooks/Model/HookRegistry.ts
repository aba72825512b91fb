import { afterCommit, inject, injectable, RefreshingValue } from '#framework';
import { hookKey, type Hook } from './Hook.js';
import { SubscriptionRepository } from './SubscriptionRepository.js';
import { WebhooksXmlConfig } from './WebhooksXmlConfig.js';

/** How long this process uses the subscriptions it read before reading them again (other processes subscribe too). */
const REFRESH_MS = 1000;

/**
 * Every hook: webhooks.xml (read once, at start-up) and the run-time subscriptions (read again at most once a
 * second, and at once after this process changed them). A subscription of the same identity as
 * a webhooks.xml hook replaces it.
 */
@injectable()
export class HookRegistry {
  private readonly loaded = new RefreshingValue(() => this.load(), REFRESH_MS);

  constructor(
    @inject('Dispensary\\Webhooks\\Model\\WebhooksXmlConfig') private readonly xml: WebhooksXmlConfig,
    @inject('Dispensary\\Webhooks\\Model\\SubscriptionRepository')
    private readonly subscriptions: SubscriptionRepository,
  ) {}

  /** The hooks of a webhook method and type (`before`/`after`). */
  async hooksFor(method: string, type: 'before' | 'after'): Promise<readonly Hook[]> {
    return (await this.loaded.get()).byMethod.get(`${method} ${type}`) ?? [];
  }

  async all(): Promise<readonly Hook[]> {
    return (await this.loaded.get()).all;
  }

  /**
   * This process changed the subscriptions: read them again at once (the change's own request sees
   * it), and again once the change commits, since another request reading between the two would
   * keep the old state for a second.
   */
  invalidate(): void {
    this.loaded.invalidate();
    afterCommit(() => this.loaded.invalidate());
  }

  private async load(): Promise<{ byMethod: Map<string, Hook[]>; all: Hook[] }> {
    const merged = new Map<string, Hook>();
    for (const hook of [...this.xml.read(), ...(await this.subscriptions.all())]) merged.set(hookKey(hook), hook);
    const byMethod = new Map<string, Hook[]>();
    for (const hook of merged.values()) {
      const key = `${hook.webhook_method} ${hook.webhook_type}`;
      byMethod.set(key, [...(byMethod.get(key) ?? []), hook]);
    }
    return { byMethod, all: [...merged.values()] };
  }
}
