import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { EventSubscriptionManagementInterface } from '../Api/EventSubscriptionManagementInterface.js';

@injectable()
export class EventsUnsubscribeCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:unsubscribe',
    description: 'Remove a run-time event subscription',
    arguments: [{ syntax: '<name>', description: 'the subscription name' }],
  };

  constructor(
    @inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface,
  ) {}

  async run({ args }: CommandInput, print: Print): Promise<void> {
    if (!(await this.subscriptions.unsubscribe(args[0]!)))
      throw new Error(`No run-time subscription is named "${args[0]}"`);
    print(`Unsubscribed ${args[0]}.`);
  }
}
