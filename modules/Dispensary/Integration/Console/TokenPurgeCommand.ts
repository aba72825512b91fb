import { inject, injectable, type CliCommand } from '#framework';
import type { ExpiredRecordsPurger } from '../Model/ExpiredRecordsPurger.js';

/** `integration:token:purge`: deletes expired and revoked admin tokens, expired lock-out rows and what other modules add; run it from cron. */
@injectable()
export class TokenPurgeCommand implements CliCommand {
  readonly name = 'integration:token:purge';
  readonly description = 'Delete expired and revoked admin tokens and expired lock-out records';

  constructor(@inject('Dispensary\\Integration\\Model\\ExpiredRecordsPurger') private readonly purger: ExpiredRecordsPurger) {}

  configure(): void {}

  async execute(_options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const deleted = await this.purger.purgeAll();
    for (const [name, count] of Object.entries(deleted)) print(`${name}: ${count} deleted`);
  }
}
