import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { IntegrationTokenServiceInterface } from '../Api/IntegrationTokenServiceInterface.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** `integration:token:create --name <name> (--store <code> | --all-stores) [--resource <id>]...` */
@injectable()
export class TokenCreateCommand implements CliCommand {
  readonly name = 'integration:token:create';
  readonly description = 'Create an integration access token; prints the token alone on the last line';

  constructor(@inject(IntegrationTokenServiceInterface) private readonly tokens: IntegrationTokenServiceInterface) {}

  configure(command: Command): void {
    command
      .requiredOption('--name <name>', 'integration name, unique among active tokens')
      .option('--store <code>', 'bind the token to this store')
      .option('--all-stores', 'let the token act for every store, `all` included')
      .option('--resource <id>', 'ACL resource the token may use (repeatable); all when omitted', collect, []);
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const token = await this.tokens.create({
      name: String(options.name),
      store: options.store === undefined ? undefined : String(options.store),
      allStores: options.allStores === true,
      resources: options.resource as string[],
    });
    print(token);
  }
}
