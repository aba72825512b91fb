import { defineContract } from '#framework';
import type { WebsiteInterface } from './Data/WebsiteInterface.js';

export interface WebsiteRepositoryInterface {
  /** The websites of the stores the caller may use (the admin website 0 with the admin store). */
  getList(): Promise<WebsiteInterface[]>;
}

export const WebsiteRepositoryInterface = defineContract<WebsiteRepositoryInterface>(
  'Dispensary\\Store\\Api\\WebsiteRepositoryInterface',
  {
    getList: { params: [], description: 'Websites of the store views visible to the caller' },
  },
);
