import { ConnectionProvider, FrameworkServices, inject, injectable, nowTimestamp } from '#framework';
import type { PurgerInterface } from '../../Api/PurgerInterface.js';

/** Admin tokens past their expiry or revoked: nothing can use them again. Integration tokens stay (their names are the audit trail). */
@injectable()
export class AdminTokenPurger implements PurgerInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async purge(now: Date): Promise<number> {
    return this.connection
      .get()('integration_token')
      .where({ kind: 'admin' })
      .andWhere((q) => q.where('expires_at', '<=', nowTimestamp(now)).orWhereNotNull('revoked_at'))
      .delete();
  }
}
