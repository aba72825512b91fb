import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { EventSubscriptionManagementInterface } from '../Api/EventSubscriptionManagementInterface.js';

@injectable()
export class EventsListCommand implements CliCommand {
  readonly name = 'events:list';
  readonly description = 'List the event subscriptions (io_events.xml and run-time ones), never their secrets';

  constructor(@inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface) {}

  configure(_command: Command): void {}

  async execute(_options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const all = await this.subscriptions.getList();
    if (all.length === 0) print('No event subscriptions.');
    for (const s of all) {
      const fields = s.fields.length ? s.fields.map((f) => f.name).join(',') : 'all fields';
      print(`${s.name}${s.parent ? ` (parent ${s.parent})` : ''} -> ${s.destination} [${fields}${s.rules.length ? `, ${s.rules.length} rule(s)` : ''}] from ${s.source}`);
    }
  }
}
