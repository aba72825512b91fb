import { inject, injectable, type ServiceCall, type ServiceCallHooksInterface } from '#framework';
import { carriesCredentials, pluginHookName } from './hookNames.js';
import { HookRunner } from './HookRunner.js';

type Json = Record<string, unknown>;

/**
 * `plugin.*` webhooks on every contract method the web API reaches (the runtime's
 * ServiceCallHooksInterface). Before hooks are sent the arguments by name
 * (`{"recommendationId": "...", "recommendation": {"items": [...]}}`) and may change them;
 * they run before the request's transaction opens. After hooks are sent `{"result": ..., <arguments>}`
 * and may change `result`; they run inside the transaction (see docs/webhooks-and-events.md).
 */
@injectable()
export class WebhookServiceCallHooks implements ServiceCallHooksInterface {
  private readonly names = new Map<string, string>();

  constructor(@inject('Dispensary\\Webhooks\\Model\\HookRunner') private readonly runner: HookRunner) {}

  async before(call: ServiceCall, args: unknown[]): Promise<unknown[]> {
    const name = this.nameOf(call);
    if (!name) return args;
    if (!(await this.runner.has(name, 'before'))) return args;
    const payload = byName(call, args);
    const changed = await this.runner.run(name, 'before', payload, call.params);
    return changed === payload ? args : call.params.map((param) => changed[param]);
  }

  async after(call: ServiceCall, args: readonly unknown[], result: unknown): Promise<unknown> {
    const name = this.nameOf(call);
    if (!name) return result;
    if (!(await this.runner.has(name, 'after'))) return result;
    const payload = { ...byName(call, args), result };
    const changed = await this.runner.run(name, 'after', payload, ['result']);
    return changed === payload ? result : changed.result;
  }

  /**
   * The hook name; null for the login route and the subscription routes (carriesCredentials): no
   * hook, from a webhooks.xml or a row stored before they were refused, sends their credentials out.
   */
  private nameOf(call: ServiceCall): string | null {
    const key = `${call.serviceClass}::${call.method}`;
    let name = this.names.get(key);
    if (name === undefined) this.names.set(key, (name = pluginHookName(call.serviceClass, call.method)));
    return carriesCredentials(name) ? null : name;
  }
}

function byName(call: ServiceCall, args: readonly unknown[]): Json {
  const payload: Json = {};
  call.params.forEach((param, index) => (payload[param] = args[index]));
  return payload;
}
