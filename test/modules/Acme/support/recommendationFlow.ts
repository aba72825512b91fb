/**
 * What the Acme tests need around the plugins: an app with the modules they choose, a logger whose
 * lines can be read, and a recommendation with products to put items on.
 */
import pino from 'pino';
import { TestApp, type TestAppOptions } from '../../../support/testApp.js';
import type { InjectResponse } from '../../../support/inject.js';

export const ITEM_CONTRACT = 'Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface';

/** The project's modules and the example module (which etc/config.json ships disabled). */
export const WITH_NOTES = { Acme_RecommendationNotes: true } as const;

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export function captureLogger(): { logger: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

export interface Flow {
  t: TestApp;
  token: string;
  recommendationId: string;
  addItems(body: unknown): PromiseLike<InjectResponse>;
  updateItems(body: unknown): PromiseLike<InjectResponse>;
  deleteItems(ids: string[]): PromiseLike<InjectResponse>;
}

/** Starts the app, creates two products, a patient and an empty recommendation. */
export async function startFlow(options: TestAppOptions): Promise<Flow> {
  const t = await TestApp.start(options);
  try {
    const token = await t.integrationToken({ allStores: true });
    const auth = { Authorization: `Bearer ${token}` };
    for (const sku of ['VIT-D3', 'OMEGA-3']) {
      const res = await t
        .request()
        .post('/rest/all/V1/products')
        .set(auth)
        .send({ product: { sku, name: sku, price: 10 } });
      if (res.status !== 200) throw new Error(`product ${sku}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const patient = await t
      .request()
      .post('/rest/V1/dispensary/patient')
      .set(auth)
      .send({ patient: { firstname: 'Ada', lastname: 'Lovelace', email: `ada.${Date.now()}@example.com` } });
    if (patient.status !== 200) throw new Error(`patient: ${patient.status} ${JSON.stringify(patient.body)}`);
    const created = await t
      .request()
      .post(`/rest/V1/dispensary/patient/${patient.body.patient_id}/recommendation`)
      .set(auth);
    if (created.status !== 200) throw new Error(`recommendation: ${created.status} ${JSON.stringify(created.body)}`);
    const recommendationId = created.body.recommendation_id as string;
    const itemsUrl = `/rest/V1/dispensary/recommendation/${recommendationId}/item`;
    return {
      t,
      token,
      recommendationId,
      addItems: (body) =>
        t
          .request()
          .post(itemsUrl)
          .set(auth)
          .send(body as object),
      updateItems: (body) =>
        t
          .request()
          .put(itemsUrl)
          .set(auth)
          .send(body as object),
      deleteItems: (ids) => t.request().delete(itemsUrl).query({ id: ids }).set(auth),
    };
  } catch (error) {
    await t.stop();
    throw error;
  }
}
