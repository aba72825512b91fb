import { defineContract } from '#framework';
import type { WebsiteInterface } from './Data/WebsiteInterface.js';

export interface WebsiteRepositoryInterface {
  /** The websites of the stores the caller may use (never the admin website 0). */
  getList(): Promise<WebsiteInterface[]>;
}

export const WebsiteRepositoryInterface = defineContract<WebsiteRepositoryInterface>('Dispensary\\Store\\Api\\WebsiteRepositoryInterface', {
  getList: { params: [], description: 'Websites of the store views visible to the caller' },
});
