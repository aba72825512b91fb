import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';

/** `admin:user:activate --username <u>`: Magento's `is_active` = 1. The user may sign in again; tokens
 * revoked when it was deactivated stay revoked. */
@injectable()
export class AdminUserActivateCommand implements CliCommand {
  readonly name = 'admin:user:activate';
  readonly description = 'Activate an admin user again (it signs in for new tokens)';

  constructor(
    @inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface,
  ) {}

  configure(command: Command): void {
    command.requiredOption('--username <username>', 'admin user name (any case)');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const username = String(options.username);
    const changed = await this.users.setActive(username, true);
    print(changed ? `Activated "${username}".` : `"${username}" was already active.`);
  }
}
