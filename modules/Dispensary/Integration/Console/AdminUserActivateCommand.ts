import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import { USERNAME } from './options.js';

/** `admin:user:activate --username <u>`: Magento's `is_active` = 1. The user may sign in again; tokens
 * revoked when it was deactivated stay revoked. */
@injectable()
export class AdminUserActivateCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'admin:user:activate',
    description: 'Activate an admin user again (it signs in for new tokens)',
    options: [USERNAME],
  };

  constructor(@inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    const username = String(options.username);
    const changed = await this.users.setActive(username, true);
    print(changed ? `Activated "${username}".` : `"${username}" was already active.`);
  }
}
