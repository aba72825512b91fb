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
  /** Declared in other modules' etc/extension_attributes.xml, filled by their plugins. */
  extension_attributes?: RecommendationExtensionInterface;
  /** After plugins may add fields of their own; they are serialised as they are. Extension attributes go under `extension_attributes`. */
  [extra: string]: unknown;
}

/**
 * Magento's generated `RecommendationExtensionInterface`: empty here; `setup:di:compile` adds every
 * attribute etc/extension_attributes.xml declares (generated/di/*.ts), each optional and nullable.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation in generated/
export interface RecommendationExtensionInterface {}

export const RecommendationInterface = defineDataInterface<RecommendationInterface>(
  'Dispensary\\Recommendation\\Api\\Data\\RecommendationInterface',
  {
    nested: { items: 'Dispensary\\Recommendation\\Api\\Data\\RecommendationItemInterface[]' },
  },
);

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
  /** The extension attributes the request carried (checked by the web API against etc/extension_attributes.xml). */
  extension_attributes?: RecommendationExtensionInterface;
}
