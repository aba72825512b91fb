import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { OauthIntegrationServiceInterface } from '../Api/OauthIntegrationServiceInterface.js';
import { INTEGRATION_NAME } from './options.js';

/** `integration:delete --name <name>`: its requests fail at once, in every server process. */
@injectable()
export class IntegrationDeleteCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'integration:delete',
    description: 'Delete the OAuth 1.0a integration of that name',
    options: [INTEGRATION_NAME],
  };

  constructor(
    @inject(OauthIntegrationServiceInterface) private readonly integrations: OauthIntegrationServiceInterface,
  ) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    await this.integrations.delete(String(options.name));
    print(`Deleted the integration "${String(options.name)}".`);
  }
}
