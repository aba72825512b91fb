/**
 * Helpers for the dispensary HTTP tests: the real app (TestApp), products through the catalog
 * route, patients and recommendations through the dispensary routes.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { InjectRequest, InjectResponse as Response } from '../../support/inject.js';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import type { ApplicationOptions } from '../../../app/bootstrap/Application.js';
import { TestApp } from '../../support/testApp.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const RECOMMENDATION_RESOURCE = 'Dispensary_Recommendation::recommendation';
export const PATIENT_RESOURCE = 'Dispensary_Recommendation::patient';

export const denied = (resources: string) => ({
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources },
});

export interface Item {
  item_id: string;
  sku: string;
  qty: number;
  autoship_interval: string;
  note: string | null;
  fulfillment_type: string;
  doctor_id: number | null;
  location_id: number | null;
  availability: string;
}

export interface Recommendation {
  recommendation_id: string;
  patient_id: number;
  store_id: number;
  format: string;
  status: string;
  note: string | null;
  notify_email: boolean;
  notify_sms: boolean;
  created_at: string;
  updated_at: string;
  items: Item[];
  [extra: string]: unknown;
}

/** The modules of the project plus the test fixture modules of this folder. */
export function withFixtureModules(): ApplicationOptions {
  return {
    moduleSources: [
      { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
      {
        modulesDir: path.join(PROJECT_ROOT, 'test', 'modules', 'Recommendation', 'fixtures'),
        codeDir: path.join(DIST_ROOT, 'test', 'modules', 'Recommendation', 'fixtures'),
      },
    ],
  };
}

let counter = 0;
/** A name no other test in this process uses. */
export function unique(prefix: string): string {
  return `${prefix}${++counter}`;
}

export class Dispensary {
  private constructor(
    readonly t: TestApp,
    /** All-stores token, all resources. */
    readonly token: string,
  ) {}

  static async start(options?: ApplicationOptions): Promise<Dispensary> {
    const t = await TestApp.start(options);
    try {
      const token = await t.integrationToken({ allStores: true });
      return new Dispensary(t, token);
    } catch (error) {
      await t.stop();
      throw error;
    }
  }

  get http() {
    return this.t.http;
  }

  /** Requests through the app in-process (TestApp.request()). */
  request() {
    return this.t.request();
  }

  stop(): Promise<void> {
    return this.t.stop();
  }

  /** A request with the all-stores token (or `token`). `scope` '' means `/rest/V1`. */
  call(method: 'get' | 'post' | 'put' | 'delete', scope: string, route: string, token: string | null = this.token) {
    const url = `/rest/${scope ? `${scope}/` : ''}V1${route}`;
    const req = this.request()[method](url);
    return token === null ? req : req.set('Authorization', `Bearer ${token}`);
  }

  async product(sku: string, options: { status?: 1 | 2; inStock?: boolean; name?: string } = {}): Promise<void> {
    const res = await this.call('post', 'all', '/products').send({
      product: {
        sku,
        name: options.name ?? `Product ${sku}`,
        price: 10,
        status: options.status ?? 1,
        extension_attributes: { stock_item: { is_in_stock: options.inStock ?? true } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  async products(...skus: string[]): Promise<void> {
    for (const sku of skus) await this.product(sku);
  }

  async patient(
    scope = 'default',
    data: Partial<{ firstname: string; lastname: string; email: string }> = {},
  ): Promise<number> {
    const res = await this.call('post', scope, '/dispensary/patient').send({
      patient: { firstname: 'Ada', lastname: 'Lovelace', email: `${unique('patient')}@example.com`, ...data },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.patient_id as number;
  }

  createRecommendation(patientId: number, body?: unknown, scope = 'default'): InjectRequest {
    const req = this.call('post', scope, `/dispensary/patient/${patientId}/recommendation`);
    return body === undefined ? req : req.send(body as object);
  }

  /** A recommendation for a new patient of `scope`, made with `body`; answers it. */
  async recommendation(body?: unknown, scope = 'default'): Promise<Recommendation> {
    const patientId = await this.patient(scope);
    const res = await this.createRecommendation(patientId, body, scope);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as Recommendation;
  }

  get(recommendationId: string, scope = 'default') {
    return this.call('get', scope, `/dispensary/recommendation/${recommendationId}`);
  }

  add(recommendationId: string, body: unknown, scope = 'default') {
    return this.call('post', scope, `/dispensary/recommendation/${recommendationId}/item`).send(body as object);
  }

  update(recommendationId: string, body: unknown, scope = 'default') {
    return this.call('put', scope, `/dispensary/recommendation/${recommendationId}/item`).send(body as object);
  }

  remove(recommendationId: string, ids: string[], scope = 'default') {
    const query = ids.map((id) => `id[]=${encodeURIComponent(id)}`).join('&');
    return this.call('delete', scope, `/dispensary/recommendation/${recommendationId}/item${query ? `?${query}` : ''}`);
  }

  /** The stored recommendation, read back through GET. */
  async read(recommendationId: string, scope = 'all'): Promise<Recommendation> {
    const res = await this.get(recommendationId, scope);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as Recommendation;
  }

  /** Sets updated_at far in the past, so a test can see whether a request changes it (no sleeping). */
  async ageRecommendation(recommendationId: string): Promise<string> {
    const old = '2000-01-01 00:00:00';
    await this.t.app
      .knex('dispensary_recommendation')
      .where({ recommendation_id: recommendationId })
      .update({ updated_at: old });
    return old;
  }
}

/** Asserts a 200 and answers the recommendation of the body. */
export function ok(res: Response): Recommendation {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as Recommendation;
}

/** The `errors` of an aggregated 400, or the body itself as a one-element list. */
export function inputErrors(res: Response): { message: string; parameters: Record<string, unknown> }[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  return res.body.errors ?? [{ message: res.body.message, parameters: res.body.parameters ?? {} }];
}

export const INVALID = 'Invalid value of "%value" provided for the %fieldName field.';
export const REQUIRED = '"%fieldName" is required. Enter and try again.';
export const UNSUPPORTED = 'Property "%fieldName" is not supported. Remove it and try again.';

/** Every item's sku, in order. */
export const skus = (r: Recommendation) => r.items.map((i) => i.sku);
