import { inject, injectable } from '#framework';
import type { GroupInterface } from '../Api/Data/GroupInterface.js';
import type { GroupRepositoryInterface } from '../Api/GroupRepositoryInterface.js';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';
import { MAIN_GROUP } from './StoreHierarchy.js';

/** Store groups of the visible stores: every store lives in Magento's one default group, whose default store is the `default` store. */
@injectable()
export class GroupRepository implements GroupRepositoryInterface {
  constructor(@inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface) {}

  async getList(): Promise<GroupInterface[]> {
    const groupIds = new Set((await this.stores.getList()).map((store) => store.storeGroupId));
    if (!groupIds.has(MAIN_GROUP.id)) return [];
    const defaultStore = await this.stores.getDefaultStore();
    return [{ ...MAIN_GROUP, defaultStoreId: defaultStore.id }];
  }
}
