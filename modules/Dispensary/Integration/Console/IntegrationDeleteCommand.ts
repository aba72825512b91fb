import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { OauthIntegrationServiceInterface } from '../Api/OauthIntegrationServiceInterface.js';

/** `integration:delete --name <name>`: its requests fail at once, in every server process. */
@injectable()
export class IntegrationDeleteCommand implements CliCommand {
  readonly name = 'integration:delete';
  readonly description = 'Delete the OAuth 1.0a integration of that name';

  constructor(@inject(OauthIntegrationServiceInterface) private readonly integrations: OauthIntegrationServiceInterface) {}

  configure(command: Command): void {
    command.requiredOption('--name <name>', 'integration name');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    await this.integrations.delete(String(options.name));
    print(`Deleted the integration "${String(options.name)}".`);
  }
}
