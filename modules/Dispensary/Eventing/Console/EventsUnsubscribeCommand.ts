import { inject, injectable, type CommandInput, type ConsoleCommand, type Print } from '#framework';
import { EventSubscriptionManagementInterface } from '../Api/EventSubscriptionManagementInterface.js';

@injectable()
export class EventsUnsubscribeCommand implements ConsoleCommand {
  readonly definition = {
    name: 'events:unsubscribe',
    description: 'Remove a run-time event subscription',
    arguments: [{ syntax: '<name>', description: 'the subscription name' }],
  };

  constructor(@inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface) {}

  async run({ args }: CommandInput, print: Print): Promise<void> {
    if (!(await this.subscriptions.unsubscribe(args[0]!))) throw new Error(`No run-time subscription is named "${args[0]}"`);
    print(`Unsubscribed ${args[0]}.`);
  }
}
