import { AuthenticationException, ConnectionProvider, FrameworkServices, inject, injectable, nowTimestamp } from '#framework';
import type { AdminTokenServiceInterface } from '../Api/AdminTokenServiceInterface.js';
import { AdminUserServiceInterface } from '../Api/AdminUserServiceInterface.js';
import { generateToken, hashToken } from './tokens.js';

@injectable()
export class AdminTokenService implements AdminTokenServiceInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(AdminUserServiceInterface) private readonly users: AdminUserServiceInterface,
    private readonly lifetimeSeconds = 14400,
  ) {}

  async createAdminAccessToken(username: string, password: string): Promise<string> {
    const userId = await this.users.verify(username, password);
    if (userId === null) throw AuthenticationException.invalidCredentials();
    const token = generateToken();
    const now = new Date();
    await this.connection.get()('integration_token').insert({
      kind: 'admin',
      name: username.trim(),
      active_name: null,
      token_hash: hashToken(token),
      store_id: null,
      resources: null,
      admin_user_id: userId,
      created_at: nowTimestamp(now),
      expires_at: nowTimestamp(new Date(now.getTime() + this.lifetimeSeconds * 1000)),
    });
    return token;
  }
}
