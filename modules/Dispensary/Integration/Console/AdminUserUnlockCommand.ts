import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import type { LoginFailureLog } from '../Model/LoginFailureLog.js';
import { usernameKey } from '../Model/usernameKey.js';

/** `admin:user:unlock --username <u>`: Magento's command of that name; clears the failed-login count. */
@injectable()
export class AdminUserUnlockCommand implements CliCommand {
  readonly name = 'admin:user:unlock';
  readonly description = 'Unlock an admin user name locked by failed logins';

  constructor(@inject('Dispensary\\Integration\\Model\\LoginFailureLog') private readonly failures: LoginFailureLog) {}

  configure(command: Command): void {
    command.requiredOption('--username <username>', 'admin user name (any case)');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const cleared = await this.failures.reset(usernameKey(String(options.username)));
    print(cleared ? `Unlocked "${String(options.username)}".` : `"${String(options.username)}" was not locked.`);
  }
}
