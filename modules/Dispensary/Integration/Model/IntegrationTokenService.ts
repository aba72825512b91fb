import { ConnectionProvider, FrameworkServices, InputException, inject, injectable, nowTimestamp } from '#framework';
import type {
  IntegrationTokenRequest,
  IntegrationTokenServiceInterface,
} from '../Api/IntegrationTokenServiceInterface.js';
import { TokenGrants } from './TokenGrants.js';
import { generateToken, hashToken } from './tokens.js';

@injectable()
export class IntegrationTokenService implements IntegrationTokenServiceInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\TokenGrants') private readonly grants: TokenGrants,
  ) {}

  async create(request: IntegrationTokenRequest): Promise<string> {
    const spec = await this.grants.resolve(request);
    const token = generateToken();
    await this.grants.insert(
      this.connection.get(),
      spec,
      'integration',
      hashToken(token),
      'An active integration token named "%name" already exists; revoke it first.',
    );
    return token;
  }

  async revoke(name: string): Promise<void> {
    const updated = await this.connection
      .get()('integration_token')
      .where({ active_name: name.trim(), kind: 'integration' })
      .update({ active_name: null, revoked_at: nowTimestamp() });
    if (!updated)
      throw new InputException([{ phrase: 'No active integration token is named "%name".', parameters: { name } }]);
  }
}
