import { inject, injectable } from '#framework';
import type { GroupInterface } from '../Api/Data/GroupInterface.js';
import type { GroupRepositoryInterface } from '../Api/GroupRepositoryInterface.js';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';
import { ADMIN_GROUP, MAIN_GROUP } from './StoreHierarchy.js';

/**
 * Store groups of the visible stores: every store lives in Magento's one default group, whose
 * default store is the `default` store; the admin group 0 comes with the admin store.
 */
@injectable()
export class GroupRepository implements GroupRepositoryInterface {
  constructor(@inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface) {}

  async getList(): Promise<GroupInterface[]> {
    const groupIds = new Set((await this.stores.getList()).map((store) => store.storeGroupId));
    const groups: GroupInterface[] = [];
    if (groupIds.has(ADMIN_GROUP.id)) groups.push({ ...ADMIN_GROUP });
    if (groupIds.has(MAIN_GROUP.id)) {
      const { id, websiteId, rootCategoryId, name, code } = MAIN_GROUP;
      // Key order is the wire's: Magento's getter order.
      groups.push({
        id,
        websiteId,
        rootCategoryId,
        defaultStoreId: (await this.stores.getDefaultStore()).id,
        name,
        code,
      });
    }
    return groups;
  }
}
