import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { AdminTokenServiceInterface } from '../Api/AdminTokenServiceInterface.js';

/** `admin:token:revoke --username <u>`: effective at once, in every server process (tokens are looked up on every request). */
@injectable()
export class AdminTokenRevokeCommand implements CliCommand {
  readonly name = 'admin:token:revoke';
  readonly description = "Revoke every admin token of a user (they stop working at once)";

  constructor(@inject(AdminTokenServiceInterface) private readonly tokens: AdminTokenServiceInterface) {}

  configure(command: Command): void {
    command.requiredOption('--username <username>', 'admin user name (any case)');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const count = await this.tokens.revokeAdminAccessTokens(String(options.username));
    print(`Revoked ${count} admin token(s) of "${String(options.username)}".`);
  }
}
