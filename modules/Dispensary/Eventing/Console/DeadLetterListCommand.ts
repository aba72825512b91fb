import { inject, injectable, type CommandDefinition, type ConsoleCommand, type Print } from '#framework';
import { Outbox } from '../Model/Outbox.js';

@injectable()
export class DeadLetterListCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:dead-letter:list',
    description: 'List events whose delivery gave up (attempts exhausted or unsubscribed)',
  };

  constructor(@inject('Dispensary\\Eventing\\Model\\Outbox') private readonly outbox: Outbox) {}

  async run(_input: unknown, print: Print): Promise<void> {
    const rows = await this.outbox.dead();
    if (rows.length === 0) print('No dead letters.');
    for (const row of rows)
      print(
        `${row.outbox_id}\t${row.event_uuid}\t${row.subscription_name}\t${row.attempts} attempt(s)\t${row.last_error ?? ''}`,
      );
  }
}
