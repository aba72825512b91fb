import {
  DEFAULT_PAGE_SIZE,
  inject,
  injectable,
  type CommandDefinition,
  type ConsoleCommand,
  type Print,
  type SearchCriteria,
} from '#framework';
import { DeliveryManagementInterface } from '../Api/DeliveryManagementInterface.js';

const PAGE = Math.max(DEFAULT_PAGE_SIZE, 100);

@injectable()
export class DeadLetterListCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:dead-letter:list',
    description: 'List events whose delivery gave up (attempts exhausted or unsubscribed)',
  };

  constructor(@inject(DeliveryManagementInterface) private readonly deliveries: DeliveryManagementInterface) {}

  async run(_input: unknown, print: Print): Promise<void> {
    let printed = 0;
    for (let page = 1; ; page++) {
      const criteria: SearchCriteria = { filterGroups: [], sortOrders: [], pageSize: PAGE, currentPage: page };
      const { items, total_count } = await this.deliveries.getDeadLetters(criteria);
      for (const row of items)
        print(
          `${row.delivery_id}\t${row.event_id}\t${row.subscription_name}\t${row.attempts} attempt(s)\t${row.last_error ?? ''}`,
        );
      printed += items.length;
      if (items.length === 0 || printed >= total_count) break;
    }
    if (printed === 0) print('No dead letters.');
  }
}
