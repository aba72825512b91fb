import { inject, injectable } from '#framework';
import { IoEventsXmlConfig } from './IoEventsXmlConfig.js';
import { sourceEvent, withDefaults, type Subscription } from './Subscription.js';
import { SubscriptionRepository } from './SubscriptionRepository.js';

/**
 * io_events.xml (read once, at start-up: files change only with a restart) and the run-time subscriptions
 * (`event_subscription`), which are read from the database every time, never from a cache: who
 * receives an event is decided from committed state (issue 26). The outbox hook reads them inside
 * the change's transaction, so an event is recorded for exactly the subscriptions committed before
 * it; the delivery consumer reads its subscription again before each attempt, so a subscription
 * removed (or disabled) after the event receives nothing once that commits.
 */
@injectable()
export class SubscriptionRegistry {
  private xml?: Subscription[];

  constructor(
    @inject('Dispensary\\Eventing\\Model\\IoEventsXmlConfig') private readonly xmlConfig: IoEventsXmlConfig,
    @inject('Dispensary\\Eventing\\Model\\SubscriptionRepository') private readonly repository: SubscriptionRepository,
  ) {}

  /** The enabled subscriptions of an event, as committed (in the current transaction when there is one); without secrets. */
  async forEvent(eventName: string): Promise<readonly Subscription[]> {
    const byName = await this.load(false);
    return [...byName.values()].filter(
      (subscription) => !subscription.disabled && sourceEvent(subscription) === eventName,
    );
  }

  /** The subscription of that name as committed now, with its secret and whether it is disabled. */
  async byName(name: string): Promise<Subscription | undefined> {
    const stored = await this.repository.byName(name);
    if (stored) return stored;
    const found = this.fromXml().find((s) => s.name === name);
    if (!found) return undefined;
    const disabled = (await this.repository.disabled(name)).get(name);
    return disabled ? { ...found, disabled } : found;
  }

  async all(): Promise<Subscription[]> {
    return [...(await this.load(true)).values()];
  }

  /** Disables a subscription (its destination answered 410 Gone). */
  async disable(name: string, reason: string): Promise<void> {
    await this.repository.disable(name, reason);
  }

  private fromXml(): Subscription[] {
    // Read and checked at start-up (ConfigReaderList), so a mistake never reaches a request.
    this.xml ??= this.xmlConfig.read().map((subscription) => withDefaults(subscription));
    return this.xml;
  }

  private async load(secrets: boolean): Promise<Map<string, Subscription>> {
    const { stored, disabled } = await this.repository.allWithDisabled({ secrets });
    const byName = new Map<string, Subscription>();
    for (const subscription of [...this.fromXml(), ...stored]) {
      const off = disabled.get(subscription.name);
      byName.set(subscription.name, off ? { ...subscription, disabled: off } : subscription);
    }
    return byName;
  }
}
