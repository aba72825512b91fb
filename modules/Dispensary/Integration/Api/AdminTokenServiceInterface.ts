import { defineContract, Joi } from '#framework';

export interface AdminTokenServiceInterface {
  /** Answers a 4-hour token for all stores and all resources, or throws a 401. */
  createAdminAccessToken(username: string, password: string): Promise<string>;
}

export const AdminTokenServiceInterface = defineContract<AdminTokenServiceInterface>('Dispensary\\Integration\\Api\\AdminTokenServiceInterface', {
  createAdminAccessToken: {
    params: [
      { name: 'username', schema: Joi.string().min(1).max(255).required() },
      { name: 'password', schema: Joi.string().min(1).max(1024).required() },
    ],
  },
});
