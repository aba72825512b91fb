import { Registry } from 'prom-client';
import type { Logger } from '../../../app/framework/index.js';
import { DeliveryConsumer } from '../../../modules/Dispensary/Eventing/Model/DeliveryConsumer.js';
import type { EventQueue } from '../../../modules/Dispensary/Eventing/Model/EventQueue.js';
import type { Outbox } from '../../../modules/Dispensary/Eventing/Model/Outbox.js';
import type { OutboxRelay } from '../../../modules/Dispensary/Eventing/Model/OutboxRelay.js';
import type { SubscriptionRegistry } from '../../../modules/Dispensary/Eventing/Model/SubscriptionRegistry.js';
import type { WebhookTransport } from '../../../modules/Dispensary/Webhooks/Model/WebhookTransport.js';
import type { TestApp } from '../../support/testApp.js';

export const ITEMS_ADDED = 'observer.dispensary_recommendation_items_add_after';

/** What a test changes of a delivery consumer; di.xml's values come from EVENT_* settings. */
export interface TestConsumerSettings {
  /** The delays (ms) before each retry: `schedule.length + 1` attempts. */
  readonly schedule?: readonly number[];
  readonly timeoutMs?: number;
  readonly leaseMs?: number;
  readonly retentionHours?: number;
  readonly concurrency?: number;
  readonly registry?: Registry;
}

/** A delivery consumer in the test's process, on the app's own services, with short delays. */
export function testDeliveryConsumer(t: TestApp, settings: TestConsumerSettings = {}): DeliveryConsumer {
  const app = t.app;
  return new DeliveryConsumer(
    app.get<Outbox>('Dispensary\\Eventing\\Model\\Outbox'),
    app.get<SubscriptionRegistry>('Dispensary\\Eventing\\Model\\SubscriptionRegistry'),
    app.get<WebhookTransport>('Dispensary\\Webhooks\\Model\\WebhookTransport'),
    app.get<Logger>('Framework\\Logger\\LoggerInterface'),
    settings.registry ?? new Registry(),
    app.get<EventQueue>('Dispensary\\Eventing\\Model\\EventQueue'),
    app.get<OutboxRelay>('Dispensary\\Eventing\\Model\\OutboxRelay'),
    settings.schedule ?? [20, 20],
    settings.timeoutMs ?? 1000,
    settings.leaseMs ?? 2000,
    // The relay's poll (250 ms in di.xml): 25 ms keeps retries and new heads prompt; 10 ms cost
    // CPU in polls that found nothing (the 200-entity run was no faster for it, rather slower).
    25,
    settings.retentionHours ?? 168,
    300_000,
    16,
    settings.concurrency ?? 32,
  );
}
