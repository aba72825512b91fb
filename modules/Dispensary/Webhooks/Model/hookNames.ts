/**
 * Adobe's webhook names. A contract method reachable from webapi.xml is
 * `plugin.<vendor>.<module>.api.<interface in snake case, without _interface>.<method in snake case>`:
 * `Dispensary\Recommendation\Api\RecommendationItemManagementInterface::addItems` is
 * `plugin.dispensary.recommendation.api.recommendation_item_management.add_items`. An event is
 * `observer.<event_name>`.
 */
function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

export function pluginHookName(serviceClass: string, method: string): string {
  const parts = serviceClass.split('\\');
  const last = parts.pop() ?? '';
  const type = snake(last).replace(/_interface$/, '');
  return ['plugin', ...parts.map(snake), type, snake(method)].join('.');
}

export function observerHookName(eventName: string): string {
  return `observer.${eventName.toLowerCase()}`;
}

/** Methods whose arguments or result are passwords, tokens or secrets. */
export const CREDENTIAL_METHODS: ReadonlySet<string> = new Set([
  'plugin.dispensary.integration.api.admin_token_service.create_admin_access_token',
]);

/**
 * Every method of these interfaces: the webhook and event subscription routes, whose arguments
 * and answers carry signing secrets and hook headers (credentials an integrator put there). No
 * hook, from the REST routes or a webhooks.xml, may be sent them.
 */
const CREDENTIAL_INTERFACES: readonly string[] = [
  'plugin.dispensary.webhooks.api.webhook_management.',
  'plugin.dispensary.eventing.api.event_subscription_management.',
];

/** Whether a hook of this name would be sent credentials: such a name cannot be subscribed, and never runs. */
export function carriesCredentials(name: string): boolean {
  return CREDENTIAL_METHODS.has(name) || CREDENTIAL_INTERFACES.some((prefix) => name.startsWith(prefix));
}
