import { FrameworkServices, inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, HookPointList, Print } from '#framework';
import { observerHookName, pluginHookName } from '../Model/hookNames.js';

/**
 * `webhooks:info <name> [--webhook-type before|after]`: the shape of the payload that hook
 * receives (each value is its type; `fields` choose and rename within it).
 */
@injectable()
export class WebhooksInfoCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'webhooks:info',
    description: 'Print the payload a webhook of that name receives',
    needsDatabase: false,
    arguments: [
      {
        syntax: '<name>',
        description: 'e.g. plugin.dispensary.recommendation.api.recommendation_item_management.add_items',
      },
    ],
    options: [{ flags: '--webhook-type <type>', description: 'before or after', default: 'before' }],
  };

  constructor(@inject(FrameworkServices.HookPointList) private readonly points: HookPointList) {}

  async run({ args, options }: CommandInput, print: Print): Promise<void> {
    const name = args[0] ?? '';
    const type = String(options.webhookType);
    if (type !== 'before' && type !== 'after') throw new Error('--webhook-type must be before or after');
    if (name.startsWith('observer.')) {
      const event = name.slice('observer.'.length);
      if (!this.points.eventNames().map(observerHookName).includes(name))
        print(`(no events.xml names ${event}: it may still be dispatched)`);
      print(JSON.stringify({ eventName: event, data: '{...the data the event is dispatched with}' }, null, 2));
      return;
    }
    const call = (await this.points.serviceCalls()).find(
      (candidate) => pluginHookName(candidate.serviceClass, candidate.method) === name,
    );
    if (!call) throw new Error(`No webhook is named "${name}": see webhooks:list:all`);
    const payload: Record<string, unknown> = {};
    call.params.forEach((param, index) => (payload[param] = call.types[index]));
    if (type === 'after') payload.result = call.returns ?? 'any';
    print(JSON.stringify(payload, null, 2));
  }
}
