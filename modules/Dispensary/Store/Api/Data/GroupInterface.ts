/**
 * Magento's Store\Api\Data\GroupInterface (a store group), as the web API returns it: keys in the
 * order of the interface's getters (Magento's REST output follows it).
 */
export interface GroupInterface {
  id: number;
  websiteId: number;
  rootCategoryId: number;
  defaultStoreId: number;
  name: string;
  code: string;
}
