import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';

/** `admin:user:create --username <u> --password <p>` */
@injectable()
export class AdminUserCreateCommand implements CliCommand {
  readonly name = 'admin:user:create';
  readonly description = 'Create an admin user (for POST /V1/integration/admin/token)';

  constructor(@inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface) {}

  configure(command: Command): void {
    command
      .requiredOption('--username <username>', 'user name')
      .requiredOption('--password <password>', 'at least 8 characters, with letters and digits');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const id = await this.users.create(String(options.username), String(options.password));
    print(`Created admin user "${String(options.username)}" (id ${id}).`);
  }
}
