import { defineDataInterface } from '#framework';

/** The fulfillment types, as returned (input is case-insensitive). */
export const FULFILLMENT_TYPES = ['automatic', 'LC', '1L'] as const;
export type FulfillmentType = (typeof FULFILLMENT_TYPES)[number];

export const DEFAULT_AUTOSHIP_INTERVAL = 'once';
export const DEFAULT_FULFILLMENT_TYPE: FulfillmentType = 'automatic';

/** An item as the web API returns it. */
export interface RecommendationItemInterface {
  /** UUID. */
  item_id: string;
  /** Spelled as the catalog product's sku. */
  sku: string;
  qty: number;
  /** `once`, or `<N>d`, `<N>w`, `<N>m` with N from 1 to 9999, lower-case. */
  autoship_interval: string;
  note: string | null;
  fulfillment_type: FulfillmentType;
  doctor_id: number | null;
  location_id: number | null;
  /** From the catalog's stock status. */
  availability: 'in stock' | 'out of stock';
  extension_attributes?: RecommendationItemExtensionInterface;
}

/** Magento's generated `RecommendationItemExtensionInterface`: `setup:di:compile` adds every attribute etc/extension_attributes.xml declares. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation in generated/
export interface RecommendationItemExtensionInterface {}

export const RecommendationItemInterface = defineDataInterface<RecommendationItemInterface>(
  'Dispensary\\Recommendation\\Api\\Data\\RecommendationItemInterface',
);

/**
 * An item of a request, after validation: `sku` trimmed, `qty` an integer, `autoship_interval`
 * lower-case, `fulfillment_type` canonical (the `fullfillment_type` spelling folded into it),
 * ids integers; `item_id` and `availability` removed. A field that was absent in the request is
 * absent here (Update Items keeps the stored value); `null` means "the default".
 */
export interface RecommendationItemInput {
  sku: string;
  qty: number;
  autoship_interval?: string | null;
  note?: string | null;
  fulfillment_type?: FulfillmentType | null;
  doctor_id?: number | null;
  location_id?: number | null;
}

/** The validated `recommendation` of Add/Update Items: always `items` (a single `item` becomes a one-element list). */
export interface RecommendationItemsRequest {
  items: RecommendationItemInput[];
}
