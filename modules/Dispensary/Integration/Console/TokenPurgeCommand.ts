import { inject, injectable, type CommandDefinition, type ConsoleCommand, type Print } from '#framework';
import type { ExpiredRecordsPurger } from '../Model/ExpiredRecordsPurger.js';

/** `integration:token:purge`: deletes expired and revoked admin tokens, expired lock-out rows and what other modules add; run it from cron. */
@injectable()
export class TokenPurgeCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'integration:token:purge',
    description: 'Delete expired and revoked admin tokens and expired lock-out records',
  };

  constructor(
    @inject('Dispensary\\Integration\\Model\\ExpiredRecordsPurger') private readonly purger: ExpiredRecordsPurger,
  ) {}

  async run(_input: unknown, print: Print): Promise<void> {
    const deleted = await this.purger.purgeAll();
    for (const [name, count] of Object.entries(deleted)) print(`${name}: ${count} deleted`);
  }
}
