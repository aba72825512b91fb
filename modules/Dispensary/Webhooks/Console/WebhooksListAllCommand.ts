import type { Command } from 'commander';
import { FrameworkServices, inject, injectable, type CliCommand, type HookPointList } from '#framework';
import { observerHookName, pluginHookName } from '../Model/hookNames.js';

/** `webhooks:list:all`: every name a hook can attach to (Adobe's command of the same name). */
@injectable()
export class WebhooksListAllCommand implements CliCommand {
  readonly name = 'webhooks:list:all';
  readonly description = 'List every webhook name: plugin.* (web API contract methods) and observer.* (events named in events.xml)';
  readonly needsDatabase = false;

  constructor(@inject(FrameworkServices.HookPointList) private readonly points: HookPointList) {}

  configure(_command: Command): void {}

  async execute(_options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const names = (await this.points.serviceCalls()).map((call) => pluginHookName(call.serviceClass, call.method));
    names.push(...this.points.eventNames().map(observerHookName));
    for (const name of [...new Set(names)].sort()) print(name);
  }
}
