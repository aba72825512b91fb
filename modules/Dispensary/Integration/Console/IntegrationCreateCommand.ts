import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { OauthIntegrationServiceInterface } from '../Api/OauthIntegrationServiceInterface.js';
import { grantOptions, grantRequest } from './options.js';

/** `integration:create --name <name> (--store <code> | --all-stores) [--resource <id>]... [--json]` */
@injectable()
export class IntegrationCreateCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'integration:create',
    description: 'Create an active OAuth 1.0a integration; prints its consumer key and secret, access token and secret',
    options: [
      ...grantOptions('integration'),
      { flags: '--json', description: 'print the credentials as one JSON line' },
    ],
  };

  constructor(
    @inject(OauthIntegrationServiceInterface) private readonly integrations: OauthIntegrationServiceInterface,
  ) {}

  async run(input: CommandInput, print: Print): Promise<void> {
    const credentials = await this.integrations.create(grantRequest(input));
    const fields: [label: string, key: string, value: string][] = [
      ['Consumer Key', 'consumer_key', credentials.consumerKey],
      ['Consumer Secret', 'consumer_secret', credentials.consumerSecret],
      ['Access Token', 'access_token', credentials.accessToken],
      ['Access Token Secret', 'access_token_secret', credentials.accessTokenSecret],
    ];
    if (input.options.json === true) {
      // One line, spaced as `{"consumer_key": "...", ...}`.
      print(`{${fields.map(([, key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')}}`);
      return;
    }
    for (const [label, , value] of fields) print(`${label}: ${value}`);
  }
}
