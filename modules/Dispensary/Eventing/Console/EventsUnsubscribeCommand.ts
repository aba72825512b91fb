import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { EventSubscriptionManagementInterface } from '../Api/EventSubscriptionManagementInterface.js';

@injectable()
export class EventsUnsubscribeCommand implements CliCommand {
  readonly name = 'events:unsubscribe';
  readonly description = 'Remove a run-time event subscription';

  constructor(@inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface) {}

  configure(command: Command): void {
    command.argument('<name>', 'the subscription name');
  }

  async execute(_options: Record<string, unknown>, args: string[], print: (line: string) => void): Promise<void> {
    if (!(await this.subscriptions.unsubscribe(args[0]!))) throw new Error(`No run-time subscription is named "${args[0]}"`);
    print(`Unsubscribed ${args[0]}.`);
  }
}
