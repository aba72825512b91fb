import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';

/** `admin:user:create --username <u> --password <p>` */
@injectable()
export class AdminUserCreateCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'admin:user:create',
    description: 'Create an admin user (for POST /V1/integration/admin/token)',
    options: [
      { flags: '--username <username>', description: 'user name', required: true },
      { flags: '--password <password>', description: 'at least 8 characters, with letters and digits', required: true },
    ],
  };

  constructor(@inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    const id = await this.users.create(String(options.username), String(options.password));
    print(`Created admin user "${String(options.username)}" (id ${id}).`);
  }
}
