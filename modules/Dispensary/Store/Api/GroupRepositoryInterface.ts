import { defineContract } from '#framework';
import type { GroupInterface } from './Data/GroupInterface.js';

export interface GroupRepositoryInterface {
  /** The store groups of the stores the caller may use (the admin group 0 with the admin store). */
  getList(): Promise<GroupInterface[]>;
}

export const GroupRepositoryInterface = defineContract<GroupRepositoryInterface>(
  'Dispensary\\Store\\Api\\GroupRepositoryInterface',
  {
    getList: { params: [], description: 'Store groups of the store views visible to the caller' },
  },
);
