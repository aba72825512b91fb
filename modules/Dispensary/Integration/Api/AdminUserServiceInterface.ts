import { defineContract, Joi } from '#framework';

export interface AdminAuthentication {
  /** The user's id when the credentials are right, else null. */
  readonly userId: number | null;
  /** The user name as stored (the login may spell it in another case). */
  readonly username: string | null;
  /** Why it failed, for the log only: never tell the caller. */
  readonly failure?: 'unknown user' | 'wrong password' | 'inactive';
}

export interface AdminUserServiceInterface {
  create(username: string, password: string): Promise<number>;
  /** The user id when the credentials are right, else null (same time either way). */
  verify(username: string, password: string): Promise<number | null>;
  /**
   * Checks the credentials with the same work whether the user exists or not; user names match
   * case-insensitively. A right password stored with weaker hashing parameters is rehashed.
   */
  authenticate(username: string, password: string): Promise<AdminAuthentication>;
  /** The id of the user of that name (any case), or null. */
  getIdByUsername(username: string): Promise<number | null>;
  /**
   * Activates or deactivates the user of that name (any case); answers whether it changed. A
   * deactivated user cannot sign in, and its admin tokens are refused (TokenGrants), as Magento's.
   * An unknown name is an InputException.
   */
  setActive(username: string, active: boolean): Promise<boolean>;
}

export const AdminUserServiceInterface = defineContract<AdminUserServiceInterface>(
  'Dispensary\\Integration\\Api\\AdminUserServiceInterface',
  {
    create: {
      params: [
        { name: 'username', schema: Joi.string().required() },
        { name: 'password', schema: Joi.string().required() },
      ],
    },
    verify: {
      params: [
        { name: 'username', schema: Joi.string().required() },
        { name: 'password', schema: Joi.string().required() },
      ],
    },
    authenticate: {
      params: [
        { name: 'username', schema: Joi.string().required() },
        { name: 'password', schema: Joi.string().required() },
      ],
    },
    getIdByUsername: { params: [{ name: 'username', schema: Joi.string().required() }] },
    setActive: {
      params: [
        { name: 'username', schema: Joi.string().required() },
        { name: 'active', schema: Joi.boolean().required() },
      ],
    },
  },
);
