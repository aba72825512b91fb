import { defineContract, Joi } from '#framework';
import type { IntegrationTokenRequest } from './IntegrationTokenServiceInterface.js';

/** The four OAuth 1.0a credentials of an integration, each 32 lower-case letters and digits. */
export interface OauthCredentials {
  consumerKey: string;
  consumerSecret: string;
  accessToken: string;
  accessTokenSecret: string;
}

export interface OauthIntegrationServiceInterface {
  /**
   * Creates an active OAuth 1.0a integration; name, store binding and resources as for an
   * integration token. Answers its credentials in clear text: the only time they are visible.
   */
  create(request: IntegrationTokenRequest): Promise<OauthCredentials>;
  /** Deletes the OAuth integration of that name at once; throws when there is none. */
  delete(name: string): Promise<void>;
}

export const OauthIntegrationServiceInterface = defineContract<OauthIntegrationServiceInterface>(
  'Dispensary\\Integration\\Api\\OauthIntegrationServiceInterface',
  {
    create: { params: [{ name: 'request', schema: Joi.object().required() }] },
    delete: { params: [{ name: 'name', schema: Joi.string().required() }] },
  },
);
