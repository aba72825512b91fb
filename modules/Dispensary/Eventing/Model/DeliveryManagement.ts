import { inject, injectable, NoSuchEntityException, type SearchCriteria, type SearchResults } from '#framework';
import type { DeliveryManagementInterface, EventDeliveryData } from '../Api/DeliveryManagementInterface.js';
import { DeliveryRepository } from './DeliveryRepository.js';

/** The deliveries and dead letters of event subscriptions: the REST routes and events:dead-letter:* both call this. */
@injectable()
export class DeliveryManagement implements DeliveryManagementInterface {
  constructor(
    @inject('Dispensary\\Eventing\\Model\\DeliveryRepository') private readonly deliveries: DeliveryRepository,
  ) {}

  getDeliveries(name: string, searchCriteria: SearchCriteria): Promise<SearchResults<EventDeliveryData>> {
    return this.deliveries.search({ subscription_name: name }, searchCriteria);
  }

  getDeadLetters(searchCriteria: SearchCriteria): Promise<SearchResults<EventDeliveryData>> {
    return this.deliveries.search({ status: 'dead' }, searchCriteria);
  }

  async retryDeadLetter(id: number): Promise<boolean> {
    if ((await this.deliveries.retry({ ids: [id] })) === 0)
      throw new NoSuchEntityException('No dead letter with id %id', { id });
    return true;
  }

  retrySubscriptionDeadLetters(name: string): Promise<number> {
    return this.deliveries.retry({ subscription_name: name });
  }

  retryDeadLetters(ids: number[] | 'all'): Promise<number> {
    return this.deliveries.retry(ids === 'all' ? 'all' : { ids });
  }
}
