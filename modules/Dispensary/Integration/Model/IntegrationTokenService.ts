import { ConnectionProvider, FrameworkServices, InputException, inject, injectable, isUniqueViolation, nowTimestamp } from '#framework';
import type { IntegrationTokenRequest, IntegrationTokenServiceInterface } from '../Api/IntegrationTokenServiceInterface.js';
import { StoreRepositoryInterface } from '../../Store/Api/StoreRepositoryInterface.js';
import { generateToken, hashToken } from './tokens.js';

@injectable()
export class IntegrationTokenService implements IntegrationTokenServiceInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface,
    @inject(FrameworkServices.AclResources) private readonly acl: ReadonlyMap<string, unknown>,
  ) {}

  async create(request: IntegrationTokenRequest): Promise<string> {
    const name = request.name?.trim();
    if (!name) throw InputException.requiredField('name');
    if (Boolean(request.store) === Boolean(request.allStores)) {
      throw new InputException([{ phrase: 'Give either a store code or all stores, not both or neither.', parameters: {} }]);
    }
    let storeId: number | null = null;
    if (request.store) {
      const store = await this.stores.getStoreByCode(request.store);
      if (!store) throw new InputException([{ phrase: 'The store code "%storeCode" is unknown.', parameters: { storeCode: request.store } }]);
      storeId = store.id;
    }
    const resources = request.resources?.length ? [...new Set(request.resources)] : null;
    for (const resource of resources ?? []) {
      if (!this.acl.has(resource)) throw new InputException([{ phrase: 'The ACL resource "%resource" is unknown.', parameters: { resource } }]);
    }
    const token = generateToken();
    try {
      await this.connection.get()('integration_token').insert({
        kind: 'integration',
        name,
        active_name: name,
        token_hash: hashToken(token),
        store_id: storeId,
        resources: resources ? JSON.stringify(resources) : null,
        admin_user_id: null,
        created_at: nowTimestamp(),
        expires_at: null,
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InputException([{ phrase: 'An active integration token named "%name" already exists; revoke it first.', parameters: { name } }]);
      }
      throw error;
    }
    return token;
  }

  async revoke(name: string): Promise<void> {
    const updated = await this.connection
      .get()('integration_token')
      .where({ active_name: name.trim(), kind: 'integration' })
      .update({ active_name: null, revoked_at: nowTimestamp() });
    if (!updated) throw new InputException([{ phrase: 'No active integration token is named "%name".', parameters: { name } }]);
  }
}
