import { inject, injectable } from '#framework';
import type { WebsiteInterface } from '../Api/Data/WebsiteInterface.js';
import type { WebsiteRepositoryInterface } from '../Api/WebsiteRepositoryInterface.js';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';
import { MAIN_WEBSITE } from './StoreHierarchy.js';

/** Websites of the visible stores: every store lives in Magento's one default website. */
@injectable()
export class WebsiteRepository implements WebsiteRepositoryInterface {
  constructor(@inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface) {}

  async getList(): Promise<WebsiteInterface[]> {
    const websiteIds = new Set((await this.stores.getList()).map((store) => store.websiteId));
    return websiteIds.has(MAIN_WEBSITE.id) ? [{ ...MAIN_WEBSITE }] : [];
  }
}
