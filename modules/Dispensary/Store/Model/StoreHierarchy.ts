import type { GroupInterface } from '../Api/Data/GroupInterface.js';
import type { WebsiteInterface } from '../Api/Data/WebsiteInterface.js';

/**
 * A fresh Magento has one website (`base`) with one store group (`main_website_store`, root
 * category 2) above its store views; every store here belongs to them (`website_id` and
 * `store_group_id` 1). Beside them, Magento's admin website, group and store 0
 * (Store\Setup\Patch\Schema\InitializeStoresAndWebsites; the group's code `default` comes from
 * UpdateStoreGroupCodes): never stored here, listed to callers that may use every store.
 */
export const ADMIN_WEBSITE: Readonly<WebsiteInterface> = Object.freeze({
  id: 0,
  code: 'admin',
  name: 'Admin',
  defaultGroupId: 0,
});

export const ADMIN_GROUP: Readonly<GroupInterface> = Object.freeze({
  id: 0,
  websiteId: 0,
  rootCategoryId: 0,
  defaultStoreId: 0,
  name: 'Default',
  code: 'default',
});

export const MAIN_WEBSITE: Readonly<WebsiteInterface> = Object.freeze({
  id: 1,
  code: 'base',
  name: 'Main Website',
  defaultGroupId: 1,
});

export const MAIN_GROUP: Readonly<Omit<GroupInterface, 'defaultStoreId'>> = Object.freeze({
  id: 1,
  websiteId: 1,
  rootCategoryId: 2,
  name: 'Main Website Store',
  code: 'main_website_store',
});
