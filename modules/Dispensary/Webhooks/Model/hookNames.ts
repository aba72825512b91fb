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
