import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { AdminTokenServiceInterface } from '../Api/AdminTokenServiceInterface.js';
import { USERNAME } from './options.js';

/** `admin:token:revoke --username <u>`: effective at once, in every server process (tokens are looked up on every request). */
@injectable()
export class AdminTokenRevokeCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'admin:token:revoke',
    description: 'Revoke every admin token of a user (they stop working at once)',
    options: [USERNAME],
  };

  constructor(@inject(AdminTokenServiceInterface) private readonly tokens: AdminTokenServiceInterface) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    const count = await this.tokens.revokeAdminAccessTokens(String(options.username));
    print(`Revoked ${count} admin token(s) of "${String(options.username)}".`);
  }
}
