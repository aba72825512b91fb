import {
  AuthorizationException,
  FrameworkServices,
  inject,
  injectable,
  type AuthorizationInterface,
  type AuthorizationRequest,
  type Caller,
} from '#framework';
import { isOAuthHeader } from './Oauth/authorizationHeader.js';
import { OauthRequestVerifier } from './Oauth/OauthRequestVerifier.js';
import { TokenGrants } from './TokenGrants.js';
import { hashToken, TOKEN_PATTERN } from './tokens.js';

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

interface BearerSettings {
  readonly oauthAccessTokenAsBearer: boolean;
}

/**
 * The runtime's authorization hook. `Authorization: Bearer <token>` (an integration or admin
 * token) or `Authorization: OAuth ...` (a request signed by an OAuth 1.0a integration). Any
 * problem (no token, a malformed, unknown, revoked or expired one, a bad signature, a store-bound
 * token outside its store, a missing resource) answers the same 401, as Magento treats an invalid
 * token as a guest and lets the resource check refuse it. Tokens are looked up on every request:
 * a revocation or deletion from the CLI applies at once, in every server process.
 */
@injectable()
export class TokenAuthorization implements AuthorizationInterface {
  constructor(
    @inject('Dispensary\\Integration\\Model\\TokenGrants') private readonly grants: TokenGrants,
    @inject('Dispensary\\Integration\\Model\\Oauth\\OauthRequestVerifier') private readonly oauth: OauthRequestVerifier,
    @inject(FrameworkServices.DeploymentConfig) private readonly settings: BearerSettings,
  ) {}

  async authorize(request: AuthorizationRequest): Promise<Caller> {
    if (isOAuthHeader(request.authorization)) return this.oauth.verify(request.authorization, request);
    const denied = () => AuthorizationException.forResources(request.resources);
    const token = BEARER.exec(request.authorization ?? '')?.[1];
    if (!token || !TOKEN_PATTERN.test(token)) throw denied();
    const row = await this.grants.findByHash(hashToken(token));
    if (!row) throw denied();
    // An OAuth access token alone is not a Bearer token since Magento 2.4.4, unless the deployment allows it.
    if (row.kind === 'oauth' && !this.settings.oauthAccessTokenAsBearer) throw denied();
    return this.grants.grant(row, request);
  }
}
