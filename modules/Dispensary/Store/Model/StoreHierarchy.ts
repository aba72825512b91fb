import type { GroupInterface } from '../Api/Data/GroupInterface.js';
import type { WebsiteInterface } from '../Api/Data/WebsiteInterface.js';

/**
 * A fresh Magento has one website (`base`) with one store group (`main_website_store`, root
 * category 2) above its store views; every store here belongs to them (`website_id` and
 * `store_group_id` 1). The admin website and group 0 are never listed, like the admin store.
 */
export const MAIN_WEBSITE: Readonly<WebsiteInterface> = Object.freeze({ id: 1, code: 'base', name: 'Main Website', defaultGroupId: 1 });

export const MAIN_GROUP: Readonly<Omit<GroupInterface, 'defaultStoreId'>> = Object.freeze({
  id: 1,
  websiteId: 1,
  rootCategoryId: 2,
  name: 'Main Website Store',
  code: 'main_website_store',
});
