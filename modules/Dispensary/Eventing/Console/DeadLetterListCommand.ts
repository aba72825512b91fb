import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { Outbox } from '../Model/Outbox.js';

@injectable()
export class DeadLetterListCommand implements CliCommand {
  readonly name = 'events:dead-letter:list';
  readonly description = 'List events whose delivery gave up (attempts exhausted or unsubscribed)';

  constructor(@inject('Dispensary\\Eventing\\Model\\Outbox') private readonly outbox: Outbox) {}

  configure(_command: Command): void {}

  async execute(_options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const rows = await this.outbox.dead();
    if (rows.length === 0) print('No dead letters.');
    for (const row of rows) print(`${row.outbox_id}\t${row.event_uuid}\t${row.subscription_name}\t${row.attempts} attempt(s)\t${row.last_error ?? ''}`);
  }
}
