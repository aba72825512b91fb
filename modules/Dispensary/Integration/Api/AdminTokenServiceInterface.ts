import { defineContract, Joi } from '#framework';

export interface AdminTokenServiceInterface {
  /**
   * Answers a 4-hour token for all stores and all resources, or throws: 401 for wrong
   * credentials or a locked user name (the same body), 429 past the per-address limit.
   */
  createAdminAccessToken(username: string, password: string): Promise<string>;
  /** Revokes every admin token of that user at once; answers how many were active. */
  revokeAdminAccessTokens(username: string): Promise<number>;
}

export const AdminTokenServiceInterface = defineContract<AdminTokenServiceInterface>(
  'Dispensary\\Integration\\Api\\AdminTokenServiceInterface',
  {
    createAdminAccessToken: {
      // No request transaction: the password is hashed (a third of a second of CPU) without holding
      // a pooled connection, and the few writes commit on their own.
      transactional: false,
      params: [
        // Empty is the service's to refuse, as Magento's CredentialsValidator does (`"%fieldName" is required`).
        { name: 'username', schema: Joi.string().allow('').max(255).required() },
        { name: 'password', schema: Joi.string().allow('').max(1024).required() },
      ],
    },
    revokeAdminAccessTokens: { params: [{ name: 'username', schema: Joi.string().required() }] },
  },
);
