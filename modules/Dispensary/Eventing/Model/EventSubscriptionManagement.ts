import { inject, injectable, InputException } from '#framework';
import {
  EVENT_FORMATS,
  type EventSubscriptionData,
  type EventSubscriptionManagementInterface,
} from '../Api/EventSubscriptionManagementInterface.js';
import { generateSecret, RULE_OPERATORS } from '../../Webhooks/Api/payloadFilters.js';
import { SubscriptionRegistry } from './SubscriptionRegistry.js';
import { SubscriptionRepository } from './SubscriptionRepository.js';

/** Webhooks' URL policy (http/https, WEBHOOK_ALLOWED_HOSTS, never the metadata address), by name. */
interface UrlCheck {
  check(url: string): URL;
}

@injectable()
export class EventSubscriptionManagement implements EventSubscriptionManagementInterface {
  constructor(
    @inject('Dispensary\\Eventing\\Model\\SubscriptionRepository') private readonly repository: SubscriptionRepository,
    @inject('Dispensary\\Eventing\\Model\\SubscriptionRegistry') private readonly registry: SubscriptionRegistry,
    @inject('Dispensary\\Webhooks\\Model\\UrlPolicy') private readonly urls: UrlCheck,
  ) {}

  async subscribe(
    event: Partial<EventSubscriptionData> & { secret?: string },
  ): Promise<EventSubscriptionData & { secret?: string }> {
    const { secret: given, ...givenDefinition } = event as EventSubscriptionData & { secret?: string };
    const definition = { ...givenDefinition, format: givenDefinition.format ?? 'standardwebhooks' };
    if (!(EVENT_FORMATS as readonly string[]).includes(definition.format))
      throw InputException.invalidFieldValue('event.format', definition.format);
    const listened = definition.parent ?? definition.name;
    if (!listened.startsWith('observer.'))
      throw InputException.invalidFieldValue(definition.parent ? 'event.parent' : 'event.name', listened);
    this.urls.check(definition.destination);
    for (const rule of definition.rules) {
      if (!(RULE_OPERATORS as readonly string[]).includes(rule.operator))
        throw InputException.invalidFieldValue('event.rules.operator', rule.operator);
    }
    const secret = given ?? generateSecret();
    await this.repository.save(definition, secret);
    this.registry.invalidate();
    return given ? { ...definition, source: 'api' } : { ...definition, source: 'api', secret };
  }

  async unsubscribe(name: string): Promise<boolean> {
    const removed = await this.repository.delete(name);
    this.registry.invalidate();
    return removed;
  }

  async getList(): Promise<EventSubscriptionData[]> {
    return (await this.registry.all()).map(({ secret: _secret, disabled, ...subscription }) => ({
      ...subscription,
      status: disabled ? 'disabled' : 'enabled',
      status_reason: disabled?.reason ?? null,
    }));
  }
}
