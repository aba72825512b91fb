import { inject, injectable, type CommandDefinition, type ConsoleCommand, type Print } from '#framework';
import { EventSubscriptionManagementInterface } from '../Api/EventSubscriptionManagementInterface.js';

@injectable()
export class EventsListCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:list',
    description: 'List the event subscriptions (io_events.xml and run-time ones), never their secrets',
  };

  constructor(
    @inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface,
  ) {}

  async run(_input: unknown, print: Print): Promise<void> {
    const all = await this.subscriptions.getList();
    if (all.length === 0) print('No event subscriptions.');
    for (const s of all) {
      const fields = s.fields.length ? s.fields.map((f) => f.name).join(',') : 'all fields';
      print(
        `${s.name}${s.parent ? ` (parent ${s.parent})` : ''} -> ${s.destination} [${fields}${s.rules.length ? `, ${s.rules.length} rule(s)` : ''}] from ${s.source}` +
          `${s.format === 'cloudevents' ? ' as cloudevents' : ''}${s.status === 'disabled' ? ` DISABLED (${s.status_reason})` : ''}`,
      );
    }
  }
}
