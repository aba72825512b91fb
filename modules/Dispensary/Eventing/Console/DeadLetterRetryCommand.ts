import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { Outbox } from '../Model/Outbox.js';

@injectable()
export class DeadLetterRetryCommand implements CliCommand {
  readonly name = 'events:dead-letter:retry';
  readonly description = 'Send dead-lettered events again (by id, or --all), from attempt one';

  constructor(@inject('Dispensary\\Eventing\\Model\\Outbox') private readonly outbox: Outbox) {}

  configure(command: Command): void {
    command.argument('[ids...]', 'outbox ids (events:dead-letter:list)').option('--all', 'every dead letter');
  }

  async execute(options: Record<string, unknown>, args: string[], print: (line: string) => void): Promise<void> {
    if (!options.all && args.length === 0) throw new Error('Name the ids to retry, or --all');
    const ids = args.map(Number);
    if (ids.some((id) => !Number.isSafeInteger(id))) throw new Error('Ids are whole numbers');
    const count = await this.outbox.retry(options.all ? 'all' : ids);
    print(`${count} event(s) will be delivered again.`);
  }
}
