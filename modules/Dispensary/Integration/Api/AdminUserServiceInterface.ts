import { defineContract, Joi } from '#framework';

export interface AdminUserServiceInterface {
  create(username: string, password: string): Promise<number>;
  /** The user id when the credentials are right, else null (same time either way). */
  verify(username: string, password: string): Promise<number | null>;
}

export const AdminUserServiceInterface = defineContract<AdminUserServiceInterface>('Dispensary\\Integration\\Api\\AdminUserServiceInterface', {
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
});
