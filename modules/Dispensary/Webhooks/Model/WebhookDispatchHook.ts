import { inject, injectable, type DispatchHook } from '#framework';
import { observerHookName } from './hookNames.js';
import { HookRunner } from './HookRunner.js';

/**
 * `observer.<event_name>` webhooks on every event dispatch. They are sent
 * `{"eventName": "...", "data": {...}}`; before hooks may change `data` (what the observers
 * receive) or veto. Events are dispatched inside the request's transaction, so these hooks run
 * while it is open: their `timeout` bounds how long they hold it (docs/webhooks-and-events.md).
 */
@injectable()
export class WebhookDispatchHook implements DispatchHook {
  constructor(@inject('Dispensary\\Webhooks\\Model\\HookRunner') private readonly runner: HookRunner) {}

  async beforeDispatch(eventName: string, data: Record<string, unknown>): Promise<Record<string, unknown> | void> {
    const name = observerHookName(eventName);
    if (!(await this.runner.has(name, 'before'))) return;
    const payload = { eventName, data };
    const changed = await this.runner.run(name, 'before', payload, ['data']);
    return changed === payload ? undefined : (changed.data as Record<string, unknown>);
  }

  async afterDispatch(eventName: string, data: Record<string, unknown>): Promise<void> {
    const name = observerHookName(eventName);
    if (!(await this.runner.has(name, 'after'))) return;
    await this.runner.run(name, 'after', { eventName, data }, []);
  }
}
