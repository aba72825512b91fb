import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { DeliveryManagementInterface } from '../Api/DeliveryManagementInterface.js';

@injectable()
export class DeadLetterRetryCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:dead-letter:retry',
    description: 'Send dead-lettered events again (by id, or --all), from attempt one',
    arguments: [{ syntax: '[ids...]', description: 'outbox ids (events:dead-letter:list)' }],
    options: [{ flags: '--all', description: 'every dead letter' }],
  };

  constructor(@inject(DeliveryManagementInterface) private readonly deliveries: DeliveryManagementInterface) {}

  async run({ args, options }: CommandInput, print: Print): Promise<void> {
    if (!options.all && args.length === 0) throw new Error('Name the ids to retry, or --all');
    const ids = args.map(Number);
    if (ids.some((id) => !Number.isSafeInteger(id))) throw new Error('Ids are whole numbers');
    const count = await this.deliveries.retryDeadLetters(options.all ? 'all' : ids);
    print(`${count} event(s) will be delivered again.`);
  }
}
