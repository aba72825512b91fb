import { inject, injectable, RefreshingValue } from '#framework';
import { IoEventsXmlConfig } from './IoEventsXmlConfig.js';
import { sourceEvent, type Subscription } from './Subscription.js';
import { SubscriptionRepository } from './SubscriptionRepository.js';

const REFRESH_MS = 1000;

/** io_events.xml (read once) and run-time subscriptions (read again at most once a second), by the event they listen to. */
@injectable()
export class SubscriptionRegistry {
  private readonly loaded = new RefreshingValue(() => this.load(), REFRESH_MS);

  constructor(
    @inject('Dispensary\\Eventing\\Model\\IoEventsXmlConfig') private readonly xml: IoEventsXmlConfig,
    @inject('Dispensary\\Eventing\\Model\\SubscriptionRepository') private readonly repository: SubscriptionRepository,
  ) {}

  async forEvent(eventName: string): Promise<readonly Subscription[]> {
    return (await this.loaded.get()).byEvent.get(eventName) ?? [];
  }

  async byName(name: string): Promise<Subscription | undefined> {
    return (await this.loaded.get()).byName.get(name);
  }

  async all(): Promise<Subscription[]> {
    return [...(await this.loaded.get()).byName.values()];
  }

  invalidate(): void {
    this.loaded.invalidate();
  }

  private async load(): Promise<{ byEvent: Map<string, Subscription[]>; byName: Map<string, Subscription> }> {
    const byName = new Map<string, Subscription>();
    for (const subscription of [...this.xml.read(), ...(await this.repository.all())])
      byName.set(subscription.name, subscription);
    const byEvent = new Map<string, Subscription[]>();
    for (const subscription of byName.values()) {
      const event = sourceEvent(subscription);
      byEvent.set(event, [...(byEvent.get(event) ?? []), subscription]);
    }
    return { byEvent, byName };
  }
}
