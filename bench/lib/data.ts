/**
 * The data set of the benchmark and the requests each scenario sends. Everything that decides
 * what a request does lives here, so the three servers (service, Express + knex, raw) receive
 * byte-identical requests and the smoke test can check they answer the same.
 *
 * Catalog: products `Bench-00000` ... ; requests spell skus in lower case, so every server also
 * does the case-insensitive sku match of the contract.
 *  - products 0 .. BASE_SKUS-1 fill the seeded recommendations (10 items each);
 *  - products ADD_FIRST .. are what Add Items adds (never present in a seeded recommendation, so
 *    every Add request really inserts its items).
 */

export interface DataShape {
  /** Catalog size; at least ADD_FIRST + 2 * (adds a pool recommendation may receive) and the largest scaling recommendation. */
  readonly products: number;
  readonly patients: number;
  /** The recommendations GET and Update Items read and change (1,000 in the full run). */
  readonly recommendations: number;
  readonly itemsPerRecommendation: number;
  /**
   * Recommendations Add Items writes to, round-robin; large enough that each receives only a
   * few adds in one run whatever the throughput, so the response (the whole recommendation)
   * stays 12 to ~16 items for every server instead of growing with the server's speed.
   */
  readonly addPool: number;
  /** Sizes of the extra recommendations for the GET scaling run (e.g. 1,000 and 10,000 items). */
  readonly scalingSizes: readonly number[];
}

export const FULL_SHAPE: DataShape = {
  products: 10_010,
  patients: 100,
  recommendations: 1_000,
  itemsPerRecommendation: 10,
  addPool: 20_000,
  scalingSizes: [1_000, 10_000],
};

export const SMOKE_SHAPE: DataShape = {
  products: 1_700,
  patients: 5,
  recommendations: 20,
  itemsPerRecommendation: 10,
  addPool: 50,
  scalingSizes: [100],
};

/** Products of seeded items come from 0 .. BASE_SKUS-1. */
export const BASE_SKUS = 1_000;
/** Add Items adds products from here on. */
export const ADD_FIRST = 1_000;

export const STORE_CODE = 'default';
export const RESOURCE = 'Dispensary_Recommendation::recommendation';

export function productSku(index: number): string {
  return `Bench-${String(index).padStart(5, '0')}`;
}

/** What a client sends: the same sku, other case. */
export function requestSku(index: number): string {
  return productSku(index).toLowerCase();
}

/** The products of seeded recommendation `n` (of any set), position `t`. */
export function seededProduct(n: number, t: number, itemsPerRecommendation: number): number {
  return (n * itemsPerRecommendation + t) % BASE_SKUS;
}

export interface SeededIds {
  /** Recommendations of GET / Update Items. */
  readonly recommendations: readonly string[];
  /** Recommendations of Add Items. */
  readonly addPool: readonly string[];
  /** size -> recommendation id, for the GET scaling run (the 10-item size is recommendations[0]). */
  readonly bySize: ReadonlyMap<number, string>;
}

export type Scenario = 'add' | 'update' | 'get';
export const SCENARIOS: readonly Scenario[] = ['add', 'update', 'get'];
export const SCENARIO_TITLES: Record<Scenario, string> = {
  add: 'Add Items (2 new items)',
  update: 'Update Items (2 items)',
  get: 'GET recommendation',
};

export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly body?: string;
}

const base = (id: string) => `/rest/${STORE_CODE}/V1/dispensary/recommendation/${id}`;

/**
 * Add Items, request number `i` (0, 1, 2, ... across the warm-up and the run): `perRequest` new
 * items into pool recommendation i mod P. The k-th add to one recommendation takes products
 * ADD_FIRST + k*perRequest ..., so the items are new to it and exist in the catalog.
 */
export function addRequest(ids: SeededIds, shape: DataShape, i: number, perRequest = 2): BenchRequest {
  const pool = ids.addPool;
  const k = Math.floor(i / pool.length);
  const first = ADD_FIRST + k * perRequest;
  if (first + perRequest > shape.products)
    throw new Error(
      `Add Items request ${i} needs product ${first + perRequest - 1}; the catalog has ${shape.products}`,
    );
  const items = [];
  for (let n = 0; n < perRequest; n++) {
    // Two shapes of item, as integrators send them: a JSON integer qty with an interval, and a
    // digit-string qty with a fulfillment type and a note.
    items.push(
      n % 2 === 0
        ? { sku: requestSku(first + n), qty: 2, autoship_interval: '30d' }
        : { sku: requestSku(first + n), qty: '1', fulfillment_type: 'lc', note: 'Take with food' },
    );
  }
  return {
    method: 'POST',
    path: `${base(pool[i % pool.length]!)}/item`,
    body: JSON.stringify({ recommendation: { items } }),
  };
}

/**
 * Update Items, request number `i`: two existing items of recommendation i mod N (items 2k and
 * 2k+1, k = i / N mod 5) get a new qty (never the stored one: hits on one item are 5*N apart)
 * and a doctor and location.
 */
export function updateRequest(ids: SeededIds, shape: DataShape, i: number): BenchRequest {
  const recs = ids.recommendations;
  const n = i % recs.length;
  const pairs = Math.floor(shape.itemsPerRecommendation / 2);
  const k = Math.floor(i / recs.length) % pairs;
  const qty = 10 + (i % 9_000);
  const items = [0, 1].map((t) => ({
    sku: requestSku(seededProduct(n, 2 * k + t, shape.itemsPerRecommendation)),
    qty,
    doctor_id: 7,
    location_id: 3,
  }));
  return { method: 'PUT', path: `${base(recs[n]!)}/item`, body: JSON.stringify({ recommendation: { items } }) };
}

export function getRequest(ids: SeededIds, i: number): BenchRequest {
  return { method: 'GET', path: base(ids.recommendations[i % ids.recommendations.length]!) };
}

export function scenarioRequest(scenario: Scenario, ids: SeededIds, shape: DataShape, i: number): BenchRequest {
  switch (scenario) {
    case 'add':
      return addRequest(ids, shape, i);
    case 'update':
      return updateRequest(ids, shape, i);
    case 'get':
      return getRequest(ids, i);
  }
}
