import { FrameworkServices, inject, injectable } from '#framework';
import type { CommandDefinition, ConsoleCommand, HookPointList, Print } from '#framework';
import { observerHookName, pluginHookName } from '../Model/hookNames.js';

/** `webhooks:list:all`: every name a hook can attach to (Adobe's command of the same name). */
@injectable()
export class WebhooksListAllCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'webhooks:list:all',
    description:
      'List every webhook name: plugin.* (web API contract methods) and observer.* (events named in events.xml)',
    needsDatabase: false,
  };

  constructor(@inject(FrameworkServices.HookPointList) private readonly points: HookPointList) {}

  async run(_input: unknown, print: Print): Promise<void> {
    const names = (await this.points.serviceCalls()).map((call) => pluginHookName(call.serviceClass, call.method));
    names.push(...this.points.eventNames().map(observerHookName));
    for (const name of [...new Set(names)].sort()) print(name);
  }
}
