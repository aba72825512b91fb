import {
  AuthorizationException,
  ConnectionProvider,
  FrameworkServices,
  InputException,
  inject,
  injectable,
  isUniqueViolation,
  needsGlobalCaller,
  nowTimestamp,
  preparedQuery,
  type AclResource,
  type AuthorizationRequest,
  type Caller,
  type Clock,
  type Knex,
} from '#framework';
import type { IntegrationTokenRequest } from '../Api/IntegrationTokenServiceInterface.js';
import { StoreRepositoryInterface } from '../../Store/Api/StoreRepositoryInterface.js';
import { isTrue } from './AdminUserService.js';
import { sameHash } from './tokens.js';

/** `integration` (an API key), `oauth` (an OAuth 1.0a access token) or `admin`. */
export type TokenKind = 'integration' | 'oauth' | 'admin';

/** A row of `integration_token`: what a token is bound to and may do. */
export interface TokenRow {
  token_id: number;
  kind: TokenKind;
  name: string;
  token_hash: string;
  store_id: number | null;
  resources: string | null;
  admin_user_id: number | null;
  expires_at: string | null;
  revoked_at: string | null;
  active_name: string | null;
  /** For an admin token, its user's `is_active` (null for other tokens). */
  admin_is_active: boolean | number | string | null;
}

/** A checked request for an integration's grant: its name, store binding and resources. */
export interface GrantSpec {
  readonly name: string;
  readonly storeId: number | null;
  readonly resources: readonly string[] | null;
}

const TOKEN_COLUMNS = [
  'token_id',
  'kind',
  'name',
  'token_hash',
  'store_id',
  'resources',
  'admin_user_id',
  'expires_at',
  'revoked_at',
  'active_name',
].map((c) => `integration_token.${c}`);
/**
 * The token lookup of every authenticated request, compiled once (PreparedQuery). Its columns
 * are named: a statement PostgreSQL keeps prepared must not change its result's shape when a
 * migration adds a column.
 */
const FIND_BY_HASH = preparedQuery<{ tokenHash: string }, TokenRow | undefined>((db, p) =>
  db('integration_token')
    // An admin token is as good as its user: deactivating the user refuses its tokens at once, in every process.
    .leftJoin('admin_user', 'admin_user.user_id', 'integration_token.admin_user_id')
    .where({ 'integration_token.token_hash': p('tokenHash') })
    .first([...TOKEN_COLUMNS, 'admin_user.is_active as admin_is_active']),
);

export const OTHER_STORE =
  'The token is bound to another store and cannot be used with the store "%storeCode". Use the URL of its own store.';
export const GLOBAL_RESOURCE =
  'The ACL resource "%resource" is held only by a token for all stores: use --all-stores, or leave it out.';
export const ONE_STORE_ONLY =
  'The token is bound to one store, and this request changes data shared by all stores. Use a token for all stores.';

type AclNode = Pick<AclResource, 'parent' | 'scope'>;

/**
 * The one code path for what a token may do, shared by API keys (`integration:token:create`) and
 * OAuth integrations (`integration:create`): checking and storing the name, store binding and
 * resources when the token is made, and checking them on every request.
 */
@injectable()
export class TokenGrants {
  constructor(
    @inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface,
    @inject(FrameworkServices.AclResources) private readonly acl: ReadonlyMap<string, AclNode>,
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
  ) {}

  /** Checks the request as `integration:token:create` does; throws InputException. */
  async resolve(request: IntegrationTokenRequest): Promise<GrantSpec> {
    const name = request.name?.trim();
    if (!name) throw InputException.requiredField('name');
    if (Boolean(request.store) === Boolean(request.allStores)) {
      throw new InputException([
        { phrase: 'Give either a store code or all stores, not both or neither.', parameters: {} },
      ]);
    }
    let storeId: number | null = null;
    if (request.store) {
      const store = await this.stores.getStoreByCode(request.store);
      if (!store)
        throw new InputException([
          { phrase: 'The store code "%storeCode" is unknown.', parameters: { storeCode: request.store } },
        ]);
      storeId = store.id;
    }
    const resources = request.resources?.length ? [...new Set(request.resources)] : null;
    for (const resource of resources ?? []) {
      if (!this.acl.has(resource))
        throw new InputException([{ phrase: 'The ACL resource "%resource" is unknown.', parameters: { resource } }]);
      // A grant the token could never use: say so now rather than refuse every request later.
      if (storeId !== null && needsGlobalCaller(this.acl, resource))
        throw new InputException([{ phrase: GLOBAL_RESOURCE, parameters: { resource } }]);
    }
    return { name, storeId, resources };
  }

  /** Stores an active token under the name; answers its token_id. A name already active is an InputException with `duplicatePhrase`. */
  async insert(
    db: Knex,
    spec: GrantSpec,
    kind: Exclude<TokenKind, 'admin'>,
    tokenHash: string,
    duplicatePhrase: string,
  ): Promise<number> {
    try {
      await db('integration_token').insert({
        kind,
        name: spec.name,
        active_name: spec.name,
        token_hash: tokenHash,
        store_id: spec.storeId,
        resources: spec.resources ? JSON.stringify(spec.resources) : null,
        admin_user_id: null,
        created_at: nowTimestamp(),
        expires_at: null,
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new InputException([{ phrase: duplicatePhrase, parameters: { name: spec.name } }]);
      throw error;
    }
    const row = (await db('integration_token').where({ token_hash: tokenHash }).first('token_id')) as {
      token_id: number;
    };
    return row.token_id;
  }

  /** The token row with this hash, or undefined. */
  async findByHash(tokenHash: string): Promise<TokenRow | undefined> {
    const row = await this.connection.run(FIND_BY_HASH, { tokenHash });
    return row && sameHash(row.token_hash, tokenHash) ? row : undefined;
  }

  /**
   * Who the token's holder is, if the token may call this route here: not revoked or expired,
   * inside its store (and bound to none for a `scope="global"` route), holding every resource.
   * Otherwise 401: the same as for no token at all, but for a valid token outside its store binding.
   * A store-bound token never holds an acl.xml `scope="global"` resource (the webhook and eventing
   * ones), whatever it was granted: it is refused as for any resource it lacks, before its store is looked at.
   */
  grant(row: TokenRow, request: AuthorizationRequest): Caller {
    const denied = () => AuthorizationException.forResources(request.resources);
    if (row.revoked_at !== null || (row.kind !== 'admin' && row.active_name === null)) throw denied();
    if (row.kind === 'admin' && !isTrue(row.admin_is_active)) throw denied();
    if (row.expires_at !== null && row.expires_at <= nowTimestamp(this.clock.now())) throw denied();
    const storeBound = row.store_id !== null;
    if (storeBound && request.resources.some((resource) => needsGlobalCaller(this.acl, resource))) throw denied();
    // A valid token used where its store binding does not reach: say so, rather than name a resource it may well hold.
    if (row.store_id !== null && row.store_id !== request.store.id) {
      throw new AuthorizationException(OTHER_STORE, { storeCode: request.store.code });
    }
    if (row.store_id !== null && request.globalScope) throw new AuthorizationException(ONE_STORE_ONLY, {});
    const granted = row.resources === null ? null : (JSON.parse(row.resources) as string[]);
    if (granted !== null) {
      for (const resource of request.resources) {
        if (resource !== 'self' && !this.holds(granted, resource)) throw denied();
      }
    }
    return {
      type: row.kind === 'admin' ? 'admin' : 'integration',
      id: row.kind === 'admin' ? row.admin_user_id : row.token_id,
      name: row.name,
      allStores: row.store_id === null,
      // Extension attributes with <resources> ask the caller what else it holds.
      allows: (resource) =>
        !(storeBound && needsGlobalCaller(this.acl, resource)) && (granted === null || this.holds(granted, resource)),
    };
  }

  /** A granted resource also grants everything below it in the acl.xml tree. */
  private holds(granted: readonly string[], resource: string): boolean {
    for (let current: string | null = resource; current; current = this.acl.get(current)?.parent ?? null) {
      if (granted.includes(current)) return true;
    }
    return false;
  }
}
