import { inject, injectable, InputException, NoSuchEntityException } from '#framework';
import {
  EVENT_FORMATS,
  type EventSubscriptionData,
  type EventSubscriptionManagementInterface,
} from '../Api/EventSubscriptionManagementInterface.js';
import {
  filterProblem,
  refuseContextPaths,
  settingException,
} from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import { generateSecret } from '../../OutOfProcessExtensibility/Api/Signature.js';
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
    this.check(definition);
    const secret = given ?? generateSecret();
    await this.repository.save(definition, secret);
    return given ? { ...definition, source: 'api' } : { ...definition, source: 'api', secret };
  }

  async update(
    name: string,
    event: Partial<EventSubscriptionData> & { secret?: string },
  ): Promise<EventSubscriptionData> {
    const { secret: given, name: named, source: _source, ...changes } = event;
    if (named !== undefined && named !== name) throw InputException.invalidFieldValue('event.name', named);
    const existing = await this.repository.byName(name);
    if (!existing) throw NoSuchEntityException.singleField('name', name);
    const { secret, source: _was, disabled: _disabled, ...current } = existing;
    const byName = new Map(current.fields.map((field) => [field.name, field]));
    for (const field of changes.fields ?? []) byName.set(field.name, field);
    const byRule = new Map(current.rules.map((rule) => [`${rule.field}\n${rule.operator}`, rule]));
    for (const rule of changes.rules ?? []) byRule.set(`${rule.field}\n${rule.operator}`, rule);
    const definition: EventSubscriptionData = {
      ...current,
      ...(changes.parent !== undefined ? { parent: changes.parent } : {}),
      ...(changes.destination !== undefined ? { destination: changes.destination } : {}),
      ...(changes.priority !== undefined ? { priority: changes.priority } : {}),
      ...(changes.format !== undefined ? { format: changes.format } : {}),
      fields: [...byName.values()],
      rules: [...byRule.values()],
    };
    this.check(definition);
    await this.repository.save(definition, given ?? secret);
    return { ...definition, source: 'api' };
  }

  /** What a subscription must be beyond its schema: an observer event, an allowed URL, own-data paths, known operators, RE2 regexes. */
  private check(definition: EventSubscriptionData): void {
    if (!(EVENT_FORMATS as readonly string[]).includes(definition.format))
      throw InputException.invalidFieldValue('event.format', definition.format);
    const listened = definition.parent ?? definition.name;
    if (!listened.startsWith('observer.'))
      throw InputException.invalidFieldValue(definition.parent ? 'event.parent' : 'event.name', listened);
    this.urls.check(definition.destination);
    // Paths, operators, RE2 regexes (the same check as io_events.xml's): a 400 naming the field.
    const problem = filterProblem(definition);
    if (problem) throw settingException('event', problem);
    refuseContextPaths('event', definition);
  }

  async unsubscribe(name: string): Promise<boolean> {
    const removed = await this.repository.delete(name);
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
