import {
  ConnectionProvider,
  FrameworkServices,
  InputException,
  inject,
  injectable,
  isUniqueViolation,
  nowTimestamp,
  type Logger,
} from '#framework';
import type { AdminAuthentication, AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import { checkPasswordStrength } from './password.js';
import { PasswordHasher } from './PasswordHasher.js';
import { isStorableKey, usernameKey } from './usernameKey.js';

interface UserRow {
  user_id: number;
  username: string;
  password_hash: string;
  is_active: boolean | number | string;
}

/** A boolean column as each driver answers it (SQLite and MySQL: 0/1; PostgreSQL: true/false). */
export function isTrue(value: boolean | number | string | null | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

@injectable()
export class AdminUserService implements AdminUserServiceInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\PasswordHasher') private readonly hasher: PasswordHasher,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
  ) {}

  async create(username: string, password: string): Promise<number> {
    const name = username.trim().normalize('NFC');
    const key = usernameKey(name);
    if (!name || [...name].length > 64 || !isStorableKey(key))
      throw InputException.invalidFieldValue('username', username);
    const weakness = checkPasswordStrength(password);
    if (weakness) throw new InputException([{ phrase: weakness, parameters: {} }]);
    const hash = await this.hasher.hash(password);
    try {
      await this.connection
        .get()('admin_user')
        .insert({ username: name, username_key: key, password_hash: hash, created_at: nowTimestamp() });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new InputException([
          { phrase: 'An admin user named "%username" already exists.', parameters: { username: name } },
        ]);
      throw error;
    }
    return (await this.getIdByUsername(name))!;
  }

  async verify(username: string, password: string): Promise<number | null> {
    return (await this.authenticate(username, password)).userId;
  }

  async authenticate(username: string, password: string): Promise<AdminAuthentication> {
    const row = await this.find(username);
    // The query has released its connection: nothing is held while the password hashes.
    const check = await this.hasher.verify(password, row?.password_hash ?? null);
    if (!row) return { userId: null, username: null, failure: 'unknown user' };
    if (!check.ok) return { userId: null, username: null, failure: 'wrong password' };
    // As Magento's User::verifyIdentity: the right password of a deactivated user still signs nobody in.
    if (!isTrue(row.is_active)) return { userId: null, username: null, failure: 'inactive' };
    if (check.needsRehash) await this.rehash(row, password);
    return { userId: row.user_id, username: row.username };
  }

  async getIdByUsername(username: string): Promise<number | null> {
    return (await this.find(username))?.user_id ?? null;
  }

  async setActive(username: string, active: boolean): Promise<boolean> {
    const row = await this.find(username);
    if (!row) throw new InputException([{ phrase: 'No admin user is named "%username".', parameters: { username } }]);
    if (isTrue(row.is_active) === active) return false;
    await this.connection.get()('admin_user').where({ user_id: row.user_id }).update({ is_active: active });
    return true;
  }

  private async find(username: string): Promise<UserRow | undefined> {
    const key = usernameKey(username);
    // A key no user can have (too long, control characters) is not looked up at all.
    if (!isStorableKey(key)) return undefined;
    return (await this.connection
      .get()('admin_user')
      .where({ username_key: key })
      .first('user_id', 'username', 'password_hash', 'is_active')) as UserRow | undefined;
  }

  /** Stores the password again at today's strength, unless it changed meanwhile; a failure only logs. */
  private async rehash(row: UserRow, password: string): Promise<void> {
    try {
      const hash = await this.hasher.hash(password);
      await this.connection
        .get()('admin_user')
        .where({ user_id: row.user_id, password_hash: row.password_hash })
        .update({ password_hash: hash });
    } catch (error) {
      this.logger.warn({ err: error, userId: row.user_id }, 'could not rehash an admin password; it stays as it was');
    }
  }
}
