import { randomUUID } from 'node:crypto';
import { EventManagerInterface, inject, injectable, nowTimestamp } from '#framework';
import type { RecommendationCreateRequest, RecommendationInterface } from '../Api/Data/RecommendationInterface.js';
import { RECOMMENDATION_SAVE_AFTER, type Events } from '../Api/events.js';
import { PatientRepositoryInterface } from '../Api/PatientRepositoryInterface.js';
import type { RecommendationManagementInterface } from '../Api/RecommendationManagementInterface.js';
import { NewItemRows } from './NewItemRows.js';
import {
  RecommendationResource,
  toItem,
  toRecommendation,
  type RecommendationRow,
} from './ResourceModel/RecommendationResource.js';

const EMPTY: RecommendationCreateRequest = { format: 'comprehensive', items: [] };

/** Creates recommendations, in the store of their patient (the current store, or any under `all`). */
@injectable()
export class RecommendationManagement implements RecommendationManagementInterface {
  constructor(
    @inject(PatientRepositoryInterface) private readonly patients: PatientRepositoryInterface,
    @inject('Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource')
    private readonly resource: RecommendationResource,
    @inject('Dispensary\\Recommendation\\Model\\NewItemRows') private readonly newItems: NewItemRows,
    @inject(EventManagerInterface) private readonly events: EventManagerInterface,
  ) {}

  async create(
    patientId: number,
    recommendation?: RecommendationCreateRequest | null,
  ): Promise<RecommendationInterface> {
    const request = recommendation ?? EMPTY;
    const patient = await this.patients.get(patientId);
    const id = randomUUID();
    const { rows, products } = await this.newItems.build(id, request.items);
    const now = nowTimestamp();
    const row: RecommendationRow = {
      recommendation_id: id,
      patient_id: patient.patient_id,
      store_id: patient.store_id,
      format: request.format,
      status: 'pending',
      note: request.note ?? null,
      notify_email: request.notify_email ?? false,
      notify_sms: request.notify_sms ?? false,
      created_at: now,
      updated_at: now,
    };
    await this.resource.insertRecommendation(row);
    await this.resource.insertItems(rows);
    const items = rows.map((item) => {
      const product = products.get(item.sku_key)!;
      return toItem(item, product.sku, product.extension_attributes.stock_item.is_in_stock);
    });
    const created = toRecommendation(row, items);
    await this.events.dispatch(RECOMMENDATION_SAVE_AFTER, {
      recommendation: created,
      items: request.items,
    } satisfies Events[typeof RECOMMENDATION_SAVE_AFTER]);
    return created;
  }
}
