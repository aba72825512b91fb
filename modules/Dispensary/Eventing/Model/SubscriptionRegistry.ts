import {
  FrameworkServices,
  inject,
  injectable,
  RefreshingValue,
  type ConfigurationCheck,
  type ModuleDefinition,
} from '#framework';
import { readIoEventsXml } from './IoEventsXml.js';
import { sourceEvent, type Subscription } from './Subscription.js';
import { SubscriptionRepository } from './SubscriptionRepository.js';

const REFRESH_MS = 1000;

/** io_events.xml (read once) and run-time subscriptions (read again at most once a second), by the event they listen to. */
@injectable()
export class SubscriptionRegistry implements ConfigurationCheck {
  private xml?: Subscription[];
  private readonly loaded = new RefreshingValue(() => this.load(), REFRESH_MS);

  constructor(
    @inject(FrameworkServices.ModuleList) private readonly modules: readonly ModuleDefinition[],
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

  /** At start-up (Framework\Config\ConfigurationCheckList): a mistake in an io_events.xml stops it. */
  checkConfiguration(): void {
    this.xml ??= readIoEventsXml(this.modules);
  }

  private async load(): Promise<{ byEvent: Map<string, Subscription[]>; byName: Map<string, Subscription> }> {
    this.xml ??= readIoEventsXml(this.modules);
    const byName = new Map<string, Subscription>();
    for (const subscription of [...this.xml, ...(await this.repository.all())])
      byName.set(subscription.name, subscription);
    const byEvent = new Map<string, Subscription[]>();
    for (const subscription of byName.values()) {
      const event = sourceEvent(subscription);
      byEvent.set(event, [...(byEvent.get(event) ?? []), subscription]);
    }
    return { byEvent, byName };
  }
}
