import { inject, injectable } from '#framework';
import type { PurgerInterface } from '../../Api/PurgerInterface.js';
import type { LoginFailureLog } from '../LoginFailureLog.js';

/** Lock-out rows whose time has passed (Magento's clearExpiredFailures). */
@injectable()
export class LoginFailurePurger implements PurgerInterface {
  constructor(@inject('Dispensary\\Integration\\Model\\LoginFailureLog') private readonly failures: LoginFailureLog) {}

  async purge(): Promise<number> {
    return this.failures.purgeExpired();
  }
}
