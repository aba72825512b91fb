/**
 * The events the dispensary dispatches (observe them in etc/events.xml). Each is dispatched by
 * the service after its writes, inside the request's unit of work: an observer that throws rolls
 * the whole request back. The recommendation is the one the service answers (before any after
 * plugin); item lists are RecommendationItemInterface (stored items) or RecommendationItemInput
 * (the request's, validated).
 */
import type { PatientInterface } from './Data/PatientInterface.js';
import type { RecommendationInterface } from './Data/RecommendationInterface.js';
import type { RecommendationItemInput, RecommendationItemInterface } from './Data/RecommendationItemInterface.js';

/** `patient`: the saved PatientInterface. */
export const PATIENT_SAVE_AFTER = 'dispensary_patient_save_after';
/** `recommendation`: the new recommendation; `items`: the request's items (simple-format skus as items). */
export const RECOMMENDATION_SAVE_AFTER = 'dispensary_recommendation_save_after';
/** `recommendation`, `items` (the request's), `added` (stored items added), `ignored` (request items not added: sku already there or repeated). */
export const ITEMS_ADD_AFTER = 'dispensary_recommendation_items_add_after';
/** `recommendation`, `items` (the request's), `updated` (stored items that changed, as now stored), `ignored` (request items whose sku is not in the recommendation). */
export const ITEMS_UPDATE_AFTER = 'dispensary_recommendation_items_update_after';
/** `recommendation`, `ids` (the request's item ids), `removed` (the items deleted, as they were), `ignored` (ids that named no item of it). */
export const ITEMS_DELETE_AFTER = 'dispensary_recommendation_items_delete_after';

/**
 * What each event carries, declared once here: every dispatch says `satisfies` it, `setup:di:compile`
 * checks every observer of these events against it, and an observer typed `Observer<Events[typeof ITEMS_ADD_AFTER]>` reads
 * `getData('added')` as `RecommendationItemInterface[]`.
 */
export interface Events {
  [PATIENT_SAVE_AFTER]: { patient: PatientInterface };
  [RECOMMENDATION_SAVE_AFTER]: { recommendation: RecommendationInterface; items: RecommendationItemInput[] };
  [ITEMS_ADD_AFTER]: {
    recommendation: RecommendationInterface;
    items: RecommendationItemInput[];
    added: RecommendationItemInterface[];
    ignored: RecommendationItemInput[];
  };
  [ITEMS_UPDATE_AFTER]: {
    recommendation: RecommendationInterface;
    items: RecommendationItemInput[];
    updated: RecommendationItemInterface[];
    ignored: RecommendationItemInput[];
  };
  [ITEMS_DELETE_AFTER]: {
    recommendation: RecommendationInterface;
    ids: string[];
    removed: RecommendationItemInterface[];
    ignored: string[];
  };
}
