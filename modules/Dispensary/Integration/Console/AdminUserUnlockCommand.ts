import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import type { LoginFailureLog } from '../Model/LoginFailureLog.js';
import { usernameKey } from '../Model/usernameKey.js';
import { USERNAME } from './options.js';

/** `admin:user:unlock --username <u>`: Magento's command of that name; clears the failed-login count. */
@injectable()
export class AdminUserUnlockCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'admin:user:unlock',
    description: 'Unlock an admin user name locked by failed logins',
    options: [USERNAME],
  };

  constructor(@inject('Dispensary\\Integration\\Model\\LoginFailureLog') private readonly failures: LoginFailureLog) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    const cleared = await this.failures.reset(usernameKey(String(options.username)));
    print(cleared ? `Unlocked "${String(options.username)}".` : `"${String(options.username)}" was not locked.`);
  }
}
