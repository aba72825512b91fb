import { ConnectionProvider, FrameworkServices, InputException, inject, injectable, isUniqueViolation, nowTimestamp } from '#framework';
import type { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import { checkPasswordStrength, DUMMY_HASH, hashPassword, verifyPassword } from './password.js';

@injectable()
export class AdminUserService implements AdminUserServiceInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async create(username: string, password: string): Promise<number> {
    const name = username.trim();
    if (!name || name.length > 64) throw InputException.invalidFieldValue('username', username);
    const weakness = checkPasswordStrength(password);
    if (weakness) throw new InputException([{ phrase: weakness, parameters: {} }]);
    try {
      await this.connection.get()('admin_user').insert({ username: name, password_hash: await hashPassword(password), created_at: nowTimestamp() });
    } catch (error) {
      if (isUniqueViolation(error)) throw new InputException([{ phrase: 'An admin user named "%username" already exists.', parameters: { username: name } }]);
      throw error;
    }
    const row = (await this.connection.get()('admin_user').where({ username: name }).first('user_id')) as { user_id: number };
    return row.user_id;
  }

  async verify(username: string, password: string): Promise<number | null> {
    const row = (await this.connection.get()('admin_user').where({ username: username.trim() }).first()) as
      | { user_id: number; password_hash: string }
      | undefined;
    const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
    return row && ok ? row.user_id : null;
  }
}
