import { inject, injectable } from '#framework';
import type { WebsiteInterface } from '../Api/Data/WebsiteInterface.js';
import type { WebsiteRepositoryInterface } from '../Api/WebsiteRepositoryInterface.js';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';
import { ADMIN_WEBSITE, MAIN_WEBSITE } from './StoreHierarchy.js';

/** Websites of the visible stores: every store lives in Magento's one default website; the admin website 0 comes with the admin store. */
@injectable()
export class WebsiteRepository implements WebsiteRepositoryInterface {
  constructor(@inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface) {}

  async getList(): Promise<WebsiteInterface[]> {
    const websiteIds = new Set((await this.stores.getList()).map((store) => store.websiteId));
    return [ADMIN_WEBSITE, MAIN_WEBSITE]
      .filter((website) => websiteIds.has(website.id))
      .map((website) => ({ ...website }));
  }
}
