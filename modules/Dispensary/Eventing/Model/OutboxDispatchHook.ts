import { inject, injectable, type DispatchHook } from '#framework';
import { rulesHold } from '../../OutOfProcessExtensibility/Api/payloadFilters.js';
import { Outbox } from './Outbox.js';
import { SubscriptionRegistry } from './SubscriptionRegistry.js';

/**
 * After an event's observers, one outbox row per subscription whose rules hold, written in the
 * transaction the event was dispatched in: the event is kept exactly when the change is.
 */
@injectable()
export class OutboxDispatchHook implements DispatchHook {
  constructor(
    @inject('Dispensary\\Eventing\\Model\\SubscriptionRegistry') private readonly registry: SubscriptionRegistry,
    @inject('Dispensary\\Eventing\\Model\\Outbox') private readonly outbox: Outbox,
  ) {}

  async afterDispatch(eventName: string, data: Record<string, unknown>): Promise<void> {
    for (const subscription of await this.registry.forEvent(eventName)) {
      if (rulesHold(subscription.rules, data)) await this.outbox.record(subscription, eventName, data);
    }
  }
}
