import { defineContract, Joi } from '#framework';

export interface IntegrationTokenRequest {
  name: string;
  /** Store code the token is bound to; omit with allStores. */
  store?: string;
  allStores?: boolean;
  /** ACL resources; omit for all. */
  resources?: string[];
}

export interface IntegrationTokenServiceInterface {
  /** Creates a token and answers it in clear text: the only time it is visible. */
  create(request: IntegrationTokenRequest): Promise<string>;
  /** Revokes the active token of that name at once; throws when there is none. */
  revoke(name: string): Promise<void>;
}

export const IntegrationTokenServiceInterface = defineContract<IntegrationTokenServiceInterface>(
  'Dispensary\\Integration\\Api\\IntegrationTokenServiceInterface',
  {
    create: { params: [{ name: 'request', schema: Joi.object().required() }] },
    revoke: { params: [{ name: 'name', schema: Joi.string().required() }] },
  },
);
