import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { IntegrationTokenServiceInterface } from '../Api/IntegrationTokenServiceInterface.js';
import { grantOptions, grantRequest } from './options.js';

/** `integration:token:create --name <name> (--store <code> | --all-stores) [--resource <id>]...` */
@injectable()
export class TokenCreateCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'integration:token:create',
    description: 'Create an integration access token; prints the token alone on the last line',
    options: grantOptions('token'),
  };

  constructor(@inject(IntegrationTokenServiceInterface) private readonly tokens: IntegrationTokenServiceInterface) {}

  async run(input: CommandInput, print: Print): Promise<void> {
    print(await this.tokens.create(grantRequest(input)));
  }
}
