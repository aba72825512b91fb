import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { OauthIntegrationServiceInterface } from '../Api/OauthIntegrationServiceInterface.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** `integration:create --name <name> (--store <code> | --all-stores) [--resource <id>]... [--json]` */
@injectable()
export class IntegrationCreateCommand implements CliCommand {
  readonly name = 'integration:create';
  readonly description = 'Create an active OAuth 1.0a integration; prints its consumer key and secret, access token and secret';

  constructor(@inject(OauthIntegrationServiceInterface) private readonly integrations: OauthIntegrationServiceInterface) {}

  configure(command: Command): void {
    command
      .requiredOption('--name <name>', 'integration name, unique among active integrations and tokens')
      .option('--store <code>', 'bind the integration to this store')
      .option('--all-stores', 'let the integration act for every store, `all` included')
      .option('--resource <id>', 'ACL resource the integration may use (repeatable); all when omitted', collect, [])
      .option('--json', 'print the credentials as one JSON line');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const credentials = await this.integrations.create({
      name: String(options.name),
      store: options.store === undefined ? undefined : String(options.store),
      allStores: options.allStores === true,
      resources: options.resource as string[],
    });
    const fields: [label: string, key: string, value: string][] = [
      ['Consumer Key', 'consumer_key', credentials.consumerKey],
      ['Consumer Secret', 'consumer_secret', credentials.consumerSecret],
      ['Access Token', 'access_token', credentials.accessToken],
      ['Access Token Secret', 'access_token_secret', credentials.accessTokenSecret],
    ];
    if (options.json === true) {
      // One line, spaced as `{"consumer_key": "...", ...}`.
      print(`{${fields.map(([, key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')}}`);
      return;
    }
    for (const [label, , value] of fields) print(`${label}: ${value}`);
  }
}
