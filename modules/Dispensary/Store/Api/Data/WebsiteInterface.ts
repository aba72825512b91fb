/** Magento's Store\Api\Data\WebsiteInterface, as the web API returns it (snake_case on output). */
export interface WebsiteInterface {
  id: number;
  code: string;
  name: string;
  defaultGroupId: number;
}
