import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { IntegrationTokenServiceInterface } from '../Api/IntegrationTokenServiceInterface.js';

/** `integration:token:revoke --name <name>`: effective at once, in every server process. */
@injectable()
export class TokenRevokeCommand implements CliCommand {
  readonly name = 'integration:token:revoke';
  readonly description = 'Revoke the active integration token of that name';

  constructor(@inject(IntegrationTokenServiceInterface) private readonly tokens: IntegrationTokenServiceInterface) {}

  configure(command: Command): void {
    command.requiredOption('--name <name>', 'integration name');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    await this.tokens.revoke(String(options.name));
    print(`Revoked the token "${String(options.name)}".`);
  }
}
