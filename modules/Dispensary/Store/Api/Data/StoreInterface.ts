/** A store view as the web API returns it (snake_case on output). */
export interface StoreInterface {
  id: number;
  code: string;
  name: string;
  websiteId: number;
  storeGroupId: number;
  /** 1 or 0, as Magento answers it. */
  isActive: number;
}
