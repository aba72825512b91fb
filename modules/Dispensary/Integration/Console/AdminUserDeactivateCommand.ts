import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import { AdminTokenServiceInterface } from '../Api/AdminTokenServiceInterface.js';

/** `admin:user:deactivate --username <u>`: Magento's `is_active` = 0. The user cannot sign in, and every
 * admin token it holds is refused at once (the token lookup reads the user's state) and revoked, as
 * Magento's AdminUser plugin revokes them on deactivation. */
@injectable()
export class AdminUserDeactivateCommand implements CliCommand {
  readonly name = 'admin:user:deactivate';
  readonly description = 'Deactivate an admin user: no sign-in, its tokens refused and revoked';

  constructor(
    @inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface,
    @inject(AdminTokenServiceInterface) private readonly tokens: AdminTokenServiceInterface,
  ) {}

  configure(command: Command): void {
    command.requiredOption('--username <username>', 'admin user name (any case)');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const username = String(options.username);
    const changed = await this.users.setActive(username, false);
    const revoked = await this.tokens.revokeAdminAccessTokens(username);
    print(`${changed ? 'Deactivated' : 'Already inactive:'} "${username}"; ${revoked} token(s) revoked.`);
  }
}
