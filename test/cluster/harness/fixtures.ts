/** Catalog, patients and recommendations made through the API, as a client would. */
import { expect } from 'chai';
import type { Answer, Cluster } from './Cluster.js';

type ApiHost = 'api1' | 'api2';

export function ok(answer: Answer): Record<string, unknown> {
  expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  return answer.body as Record<string, unknown>;
}

export async function createProducts(
  cluster: Cluster,
  host: ApiHost,
  token: string,
  skus: readonly string[],
): Promise<void> {
  for (const sku of skus) {
    ok(
      await cluster.call(host, 'POST', '/rest/all/V1/products', {
        token,
        body: {
          product: {
            sku,
            name: `Product ${sku}`,
            price: 10,
            status: 1,
            extension_attributes: { stock_item: { is_in_stock: true } },
          },
        },
      }),
    );
  }
}

let counter = 0;
export async function createPatient(cluster: Cluster, host: ApiHost, token: string): Promise<number> {
  const body = ok(
    await cluster.call(host, 'POST', '/rest/default/V1/dispensary/patient', {
      token,
      body: {
        patient: { firstname: 'Ada', lastname: 'Lovelace', email: `cluster-${process.pid}-${++counter}@example.com` },
      },
    }),
  );
  return body.patient_id as number;
}

export function createRecommendation(
  cluster: Cluster,
  host: ApiHost,
  token: string,
  patientId: number,
  skus: readonly string[],
): Promise<Answer> {
  return cluster.call(host, 'POST', `/rest/default/V1/dispensary/patient/${patientId}/recommendation`, {
    token,
    body: { recommendation: { items: skus.map((sku) => ({ sku, qty: 1 })) } },
  });
}

export const recommendationSkus = (body: unknown) =>
  ((body as { items: { sku: string }[] }).items ?? []).map((i) => i.sku);

/**
 * The contract's main flow split over both hosts: products, a patient, a recommendation, Add,
 * Update, Delete, GET and search, each written on one host and read on the other at once.
 */
export async function contractAcrossHosts(cluster: Cluster, token: string, prefix: string): Promise<void> {
  await createProducts(cluster, 'api1', token, [`${prefix}-1`, `${prefix}-2`, `${prefix}-3`]);
  const patientId = await createPatient(cluster, 'api2', token);
  const created = ok(await createRecommendation(cluster, 'api1', token, patientId, [`${prefix}-1`]));
  const id = created.recommendation_id as string;
  expect(
    ok(await cluster.call('api2', 'GET', `/rest/default/V1/dispensary/recommendation/${id}`, { token })),
  ).to.deep.equal(created);

  const added = ok(
    await cluster.call('api2', 'POST', `/rest/default/V1/dispensary/recommendation/${id}/item`, {
      token,
      body: { recommendation: { items: [{ sku: `${prefix}-2`, qty: 2 }] } },
    }),
  );
  expect(recommendationSkus(added)).to.deep.equal([`${prefix}-1`, `${prefix}-2`]);
  expect(
    ok(await cluster.call('api1', 'GET', `/rest/default/V1/dispensary/recommendation/${id}`, { token })),
  ).to.deep.equal(added);

  const updated = ok(
    await cluster.call('api1', 'PUT', `/rest/default/V1/dispensary/recommendation/${id}/item`, {
      token,
      body: { recommendation: { items: [{ sku: `${prefix}-1`, qty: 5 }] } },
    }),
  );
  expect((updated.items as { sku: string; qty: number }[]).find((i) => i.sku === `${prefix}-1`)?.qty).to.equal(5);
  expect(
    ok(await cluster.call('api2', 'GET', `/rest/default/V1/dispensary/recommendation/${id}`, { token })),
  ).to.deep.equal(updated);

  const search = ok(
    await cluster.call(
      'api2',
      'GET',
      `/rest/default/V1/dispensary/recommendation/search?searchCriteria[filterGroups][0][filters][0][field]=patient_id&searchCriteria[filterGroups][0][filters][0][value]=${patientId}`,
      { token },
    ),
  );
  expect((search.items as unknown[]).length).to.equal(1);
  expect(
    (await cluster.call('api1', 'GET', '/rest/default/V1/dispensary/recommendation/999999', { token })).status,
  ).to.equal(404);

  const patient = ok(await cluster.call('api1', 'GET', `/rest/default/V1/dispensary/patient/${patientId}`, { token }));
  expect(patient.patient_id).to.equal(patientId);
  const removed = ok(
    await cluster.call(
      'api2',
      'DELETE',
      `/rest/default/V1/dispensary/recommendation/${id}/item?id[]=${(updated.items as { item_id: string }[])[0]!.item_id}`,
      { token },
    ),
  );
  expect(recommendationSkus(removed)).to.deep.equal([`${prefix}-2`]);
  expect(
    ok(await cluster.call('api1', 'GET', `/rest/default/V1/dispensary/recommendation/${id}`, { token })),
  ).to.deep.equal(removed);
}
