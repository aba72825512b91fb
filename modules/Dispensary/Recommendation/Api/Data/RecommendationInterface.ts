import { defineDataInterface } from '#framework';
import type { RecommendationItemInput, RecommendationItemInterface } from './RecommendationItemInterface.js';

export type RecommendationFormat = 'comprehensive' | 'simple';

/** A recommendation as the web API returns it (plain object, snake_case keys). */
export interface RecommendationInterface {
  /** UUID. */
  recommendation_id: string;
  patient_id: number;
  store_id: number;
  /** The format of the request that created it. */
  format: RecommendationFormat;
  status: 'pending';
  note: string | null;
  notify_email: boolean;
  notify_sms: boolean;
  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
  /** UTC, `YYYY-MM-DD HH:MM:SS`; changes only when something changed. */
  updated_at: string;
  /** In the order they were first added. */
  items: RecommendationItemInterface[];
  /** After plugins may add fields of their own; they are serialised as they are. Extension attributes go under `extension_attributes`. */
  [extra: string]: unknown;
}

export const RecommendationInterface = defineDataInterface<RecommendationInterface>('Dispensary\\Recommendation\\Api\\Data\\RecommendationInterface', {
  nested: { items: 'Dispensary\\Recommendation\\Api\\Data\\RecommendationItemInterface[]' },
});

/**
 * The validated `recommendation` of a creation request. Simple-format skus have already become
 * items with qty 1 and default options; `format` tells which form the client sent.
 */
export interface RecommendationCreateRequest {
  format: RecommendationFormat;
  note?: string | null;
  notify_email?: boolean;
  notify_sms?: boolean;
  items: RecommendationItemInput[];
}
