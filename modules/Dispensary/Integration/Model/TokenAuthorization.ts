import {
  AuthorizationException,
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  nowTimestamp,
  type AuthorizationInterface,
  type AuthorizationRequest,
  type Caller,
  type Clock,
} from '#framework';
import { hashToken, sameHash, TOKEN_PATTERN } from './tokens.js';

interface TokenRow {
  token_id: number;
  kind: 'integration' | 'admin';
  name: string;
  token_hash: string;
  store_id: number | null;
  resources: string | null;
  admin_user_id: number | null;
  expires_at: string | null;
  revoked_at: string | null;
  active_name: string | null;
}

interface AclNode {
  readonly parent: string | null;
}

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/**
 * The runtime's authorization hook. Any problem (no token, a malformed, unknown, revoked or
 * expired one, a store-bound token outside its store, a missing resource) answers the same 401,
 * as Magento treats an invalid token as a guest and lets the resource check refuse it.
 * The token is looked up on every request: a revocation from the CLI applies at once, in every
 * server process.
 */
@injectable()
export class TokenAuthorization implements AuthorizationInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(FrameworkServices.AclResources) private readonly acl: ReadonlyMap<string, AclNode>,
    @inject(FrameworkServices.Clock) private readonly clock: Clock,
  ) {}

  async authorize(request: AuthorizationRequest): Promise<Caller> {
    const denied = () => AuthorizationException.forResources(request.resources);
    const token = BEARER.exec(request.authorization ?? '')?.[1];
    if (!token || !TOKEN_PATTERN.test(token)) throw denied();
    const hash = hashToken(token);
    const row = (await this.connection.get()('integration_token').where({ token_hash: hash }).first()) as TokenRow | undefined;
    if (!row || !sameHash(row.token_hash, hash)) throw denied();
    if (row.revoked_at !== null || (row.kind === 'integration' && row.active_name === null)) throw denied();
    if (row.expires_at !== null && row.expires_at <= nowTimestamp(this.clock.now())) throw denied();
    if (row.store_id !== null && row.store_id !== request.store.id) throw denied();
    if (row.resources !== null) {
      const granted = JSON.parse(row.resources) as string[];
      for (const resource of request.resources) {
        if (resource !== 'self' && !this.holds(granted, resource)) throw denied();
      }
    }
    return {
      type: row.kind,
      id: row.kind === 'admin' ? row.admin_user_id : row.token_id,
      name: row.name,
      allStores: row.store_id === null,
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
