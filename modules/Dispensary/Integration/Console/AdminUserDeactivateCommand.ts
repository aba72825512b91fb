import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import { AdminTokenServiceInterface } from '../Api/AdminTokenServiceInterface.js';
import { USERNAME } from './options.js';

/** `admin:user:deactivate --username <u>`: Magento's `is_active` = 0. The user cannot sign in, and every
 * admin token it holds is refused at once (the token lookup reads the user's state) and revoked, as
 * Magento's AdminUser plugin revokes them on deactivation. */
@injectable()
export class AdminUserDeactivateCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'admin:user:deactivate',
    description: 'Deactivate an admin user: no sign-in, its tokens refused and revoked',
    options: [USERNAME],
  };

  constructor(
    @inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface,
    @inject(AdminTokenServiceInterface) private readonly tokens: AdminTokenServiceInterface,
  ) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    const username = String(options.username);
    const changed = await this.users.setActive(username, false);
    const revoked = await this.tokens.revokeAdminAccessTokens(username);
    print(`${changed ? 'Deactivated' : 'Already inactive:'} "${username}"; ${revoked} token(s) revoked.`);
  }
}
