import type { EventSubscriptionData } from '../Api/EventSubscriptionManagementInterface.js';

/** A subscription ready to deliver: its definition and its secret (`whsec_...`, or `env:NAME` from io_events.xml). */
export interface Subscription extends EventSubscriptionData {
  readonly secret: string;
  readonly source: string;
}

/** The dispatched event a subscription listens to: `parent ?? name`, without `observer.`. */
export function sourceEvent(subscription: Pick<EventSubscriptionData, 'name' | 'parent'>): string {
  return (subscription.parent ?? subscription.name).replace(/^observer\./, '');
}

export function secretOf(subscription: Subscription, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!subscription.secret.startsWith('env:')) return subscription.secret;
  return env[subscription.secret.slice(4)] || null;
}
