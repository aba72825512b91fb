import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  isUniqueViolation,
  type DataInstaller,
} from '#framework';

/** Creates the `default` store on install. Safe to run again, and from several processes at once. */
@injectable()
export class DefaultStoreInstaller implements DataInstaller {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async install(): Promise<void> {
    const db = this.connection.get();
    if (await db('store').where({ code: 'default' }).first()) return;
    try {
      await db('store').insert({
        code: 'default',
        name: 'Default Store View',
        website_id: 1,
        store_group_id: 1,
        is_active: true,
        is_default: true,
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // another process won the race
    }
  }
}
