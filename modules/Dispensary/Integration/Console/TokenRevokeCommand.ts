import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { IntegrationTokenServiceInterface } from '../Api/IntegrationTokenServiceInterface.js';
import { INTEGRATION_NAME } from './options.js';

/** `integration:token:revoke --name <name>`: effective at once, in every server process. */
@injectable()
export class TokenRevokeCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'integration:token:revoke',
    description: 'Revoke the active integration token of that name',
    options: [INTEGRATION_NAME],
  };

  constructor(@inject(IntegrationTokenServiceInterface) private readonly tokens: IntegrationTokenServiceInterface) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    await this.tokens.revoke(String(options.name));
    print(`Revoked the token "${String(options.name)}".`);
  }
}
