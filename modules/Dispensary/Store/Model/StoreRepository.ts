import {
  ConnectionProvider,
  FrameworkServices,
  InputException,
  inject,
  injectable,
  isUniqueViolation,
  requestContext,
  ADMIN_STORE,
  type Store,
} from '#framework';
import type { StoreInterface } from '../Api/Data/StoreInterface.js';
import { STORE_CODE_PATTERN, type StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';

interface StoreRow {
  store_id: number;
  code: string;
  name: string;
  website_id: number;
  store_group_id: number;
  is_active: number | boolean;
  is_default: number | boolean;
}

function toStore(row: StoreRow): Store {
  return {
    id: row.store_id,
    code: row.code,
    name: row.name,
    websiteId: row.website_id,
    storeGroupId: row.store_group_id,
    isActive: Boolean(row.is_active),
  };
}

/**
 * Stores, and the scope resolver of the front controller. Stores are never deleted and their codes
 * never change, so a store once found is cached for the life of the process; a code not found is
 * always asked again (a store created by the CLI is visible at once).
 */
@injectable()
export class StoreRepository implements StoreRepositoryInterface {
  private readonly byCode = new Map<string, Store>();
  private defaultStore?: Store;

  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async getList(): Promise<StoreInterface[]> {
    const caller = requestContext.caller();
    const rows = (await this.connection.get()('store').select('*').orderBy('store_id')) as StoreRow[];
    const stores = rows.map(toStore);
    const current = requestContext.store();
    // A store-bound caller sees only its own store.
    // A caller that may use every store sees Magento's admin store 0 first, as Magento lists it.
    const visible = caller.allStores ? [ADMIN_STORE, ...stores] : stores.filter((s) => s.id === current.id);
    return visible.map((s) => ({
      id: s.id,
      code: s.code,
      name: s.name,
      websiteId: s.websiteId,
      storeGroupId: s.storeGroupId,
      isActive: s.isActive ? 1 : 0,
    }));
  }

  async create(code: string, name: string): Promise<Store> {
    if (!STORE_CODE_PATTERN.test(code) || code === 'all' || code === 'admin') {
      throw InputException.invalidFieldValue('code', code);
    }
    try {
      const db = this.connection.get();
      await db('store').insert({ code, name, website_id: 1, store_group_id: 1, is_active: true, is_default: false });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InputException([{ phrase: 'A store with the code "%code" already exists.', parameters: { code } }]);
      }
      throw error;
    }
    return (await this.getStoreByCode(code))!;
  }

  async getStoreByCode(code: string): Promise<Store | null> {
    const cached = this.byCode.get(code);
    if (cached) return cached;
    const row = (await this.connection.get()('store').where({ code }).first()) as StoreRow | undefined;
    if (!row || !row.is_active) return null;
    const store = toStore(row);
    this.byCode.set(code, store);
    return store;
  }

  async getDefaultStore(): Promise<Store> {
    if (this.defaultStore) return this.defaultStore;
    const row = (await this.connection.get()('store').where({ is_default: true }).first()) as StoreRow | undefined;
    if (!row) throw new Error('No default store: run setup:upgrade (npm start does it) to create it');
    this.defaultStore = toStore(row);
    return this.defaultStore;
  }

  async getById(id: number): Promise<Store | null> {
    const row = (await this.connection.get()('store').where({ store_id: id }).first()) as StoreRow | undefined;
    return row ? toStore(row) : null;
  }
}
