import type { EventSubscriptionData } from '../Api/EventSubscriptionManagementInterface.js';

/** A subscription ready to deliver: its definition and its secret (`whsec_...`, or `env:NAME` from io_events.xml). */
export interface Subscription extends EventSubscriptionData {
  readonly secret: string;
  readonly source: string;
  /** Set once its destination answered 410 Gone: nothing is recorded or sent for it. */
  readonly disabled?: { readonly reason: string; readonly at: number };
}

/** A stored definition from before `format` existed: the default envelope. */
export function withDefaults<
  T extends Omit<EventSubscriptionData, 'format'> & { format?: EventSubscriptionData['format'] },
>(definition: T): T & Pick<EventSubscriptionData, 'format'> {
  return { ...definition, format: definition.format ?? 'standardwebhooks' };
}

/** The dispatched event a subscription listens to: `parent ?? name`, without `observer.`. */
export function sourceEvent(subscription: Pick<EventSubscriptionData, 'name' | 'parent'>): string {
  return (subscription.parent ?? subscription.name).replace(/^observer\./, '');
}

export function secretOf(subscription: Subscription, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!subscription.secret.startsWith('env:')) return subscription.secret;
  return env[subscription.secret.slice(4)] || null;
}
