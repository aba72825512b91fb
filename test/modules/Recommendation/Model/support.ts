/**
 * Rows for the unit tests of the Recommendation models: a store's patient and recommendations,
 * and catalog products, written straight to the test application's database.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_STORE, requestContext, type Caller, type Store } from '../../../../app/framework/index.js';
import type { ProductRepository } from '../../../../modules/Dispensary/Catalog/Model/ProductRepository.js';
import type {
  ItemRow,
  RecommendationResource,
} from '../../../../modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.js';
import type { TestApp } from '../../../support/testApp.js';

const ALL_STORES: Caller = { type: 'integration', id: 1, name: 'model-test', allStores: true };

/** Runs fn in a request scoped to `store` (the admin scope `all` by default). */
export function inStore<R>(store: Store, fn: () => Promise<R>): Promise<R> {
  return requestContext.run({ requestId: 'model-test', store, caller: ALL_STORES }, fn);
}

export async function saveProducts(
  t: TestApp,
  ...products: { sku: string; qty?: number; status?: 1 | 2 }[]
): Promise<void> {
  const repository = t.app.get<ProductRepository>('Dispensary\\Catalog\\Model\\ProductRepository');
  for (const { sku, qty, status } of products) {
    await inStore(ADMIN_STORE, () =>
      repository.save({
        sku,
        name: sku,
        price: 1,
        status,
        extension_attributes: qty === undefined ? undefined : { stock_item: { qty } },
      }),
    );
  }
}

let patients = 0;
/** A new recommendation (and its patient) in the store; answers its id. */
export async function newRecommendation(
  t: TestApp,
  resource: RecommendationResource,
  store: Store,
  updatedAt = '2026-01-01 00:00:00',
): Promise<string> {
  const email = `patient${++patients}@example.com`;
  const [patientId] = (await t.app
    .knex('dispensary_patient')
    .insert({
      store_id: store.id,
      firstname: 'Ada',
      lastname: 'Lovelace',
      email,
      email_key: email,
      created_at: updatedAt,
      updated_at: updatedAt,
    })
    .returning('patient_id')) as ({ patient_id: number } | number)[];
  const id = randomUUID();
  await resource.insertRecommendation({
    recommendation_id: id,
    patient_id: typeof patientId === 'object' ? patientId.patient_id : patientId!,
    store_id: store.id,
    format: 'comprehensive',
    status: 'pending',
    note: null,
    notify_email: false,
    notify_sms: false,
    created_at: updatedAt,
    updated_at: updatedAt,
  });
  return id;
}

export function itemRow(recommendationId: string, sku: string, overrides: Partial<ItemRow> = {}): ItemRow {
  return {
    item_id: randomUUID(),
    recommendation_id: recommendationId,
    sku,
    sku_key: sku.toLowerCase(),
    qty: 1,
    autoship_interval: 'once',
    note: null,
    fulfillment_type: 'automatic',
    doctor_id: null,
    location_id: null,
    ...overrides,
  };
}
