import { ConnectionProvider, FrameworkServices, InputException, inject, injectable, nowTimestamp } from '#framework';
import type { IntegrationTokenRequest } from '../Api/IntegrationTokenServiceInterface.js';
import type { OauthCredentials, OauthIntegrationServiceInterface } from '../Api/OauthIntegrationServiceInterface.js';
import { Encryptor } from './Encryptor.js';
import { consumerSecretContext, tokenSecretContext } from './Oauth/OauthRequestVerifier.js';
import { TokenGrants } from './TokenGrants.js';
import { generateToken, hashToken } from './tokens.js';

/**
 * OAuth 1.0a integrations as `integration:create` makes them: the grant (name, store, resources)
 * is an `integration_token` row of kind `oauth` whose hash is the access token's, made by the same
 * code as an API key; `oauth_consumer` and `oauth_token` add the consumer and the two secrets,
 * encrypted. Everything is written in one transaction, and deleted in one.
 */
@injectable()
export class OauthIntegrationService implements OauthIntegrationServiceInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject('Dispensary\\Integration\\Model\\TokenGrants') private readonly grants: TokenGrants,
    @inject('Dispensary\\Integration\\Model\\Encryptor') private readonly encryptor: Encryptor,
  ) {}

  async create(request: IntegrationTokenRequest): Promise<OauthCredentials> {
    const spec = await this.grants.resolve(request);
    const credentials: OauthCredentials = {
      consumerKey: generateToken(),
      consumerSecret: generateToken(),
      accessToken: generateToken(),
      accessTokenSecret: generateToken(),
    };
    const keyHash = hashToken(credentials.consumerKey);
    const tokenHash = hashToken(credentials.accessToken);
    const now = nowTimestamp();
    await this.connection.get().transaction(async (trx) => {
      const tokenId = await this.grants.insert(
        trx,
        spec,
        'oauth',
        tokenHash,
        'An active integration named "%name" already exists; delete it first.',
      );
      await trx('oauth_consumer').insert({
        name: spec.name,
        key_hash: keyHash,
        secret: this.encryptor.encrypt(credentials.consumerSecret, consumerSecretContext(keyHash)),
        created_at: now,
      });
      const consumer = (await trx('oauth_consumer').where({ key_hash: keyHash }).first('consumer_id')) as {
        consumer_id: number;
      };
      await trx('oauth_token').insert({
        consumer_id: consumer.consumer_id,
        token_id: tokenId,
        type: 'access',
        secret: this.encryptor.encrypt(credentials.accessTokenSecret, tokenSecretContext(tokenHash)),
        created_at: now,
      });
    });
    return credentials;
  }

  async delete(name: string): Promise<void> {
    const deleted = await this.connection.get().transaction(async (trx) => {
      const grant = (await trx('integration_token')
        .where({ active_name: name.trim(), kind: 'oauth' })
        .first('token_id')) as { token_id: number } | undefined;
      if (!grant) return false;
      const token = (await trx('oauth_token').where({ token_id: grant.token_id }).first('consumer_id')) as
        { consumer_id: number } | undefined;
      if (token) {
        await trx('oauth_nonce').where({ consumer_id: token.consumer_id }).delete();
        await trx('oauth_token').where({ consumer_id: token.consumer_id }).delete();
        await trx('oauth_consumer').where({ consumer_id: token.consumer_id }).delete();
      }
      await trx('integration_token').where({ token_id: grant.token_id }).delete();
      return true;
    });
    if (!deleted)
      throw new InputException([{ phrase: 'No OAuth integration is named "%name".', parameters: { name } }]);
  }
}
