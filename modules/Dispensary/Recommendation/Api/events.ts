/**
 * The events the dispensary dispatches (observe them in etc/events.xml). Each is dispatched by
 * the service after its writes, inside the request's unit of work: an observer that throws rolls
 * the whole request back. The recommendation is the one the service answers (before any after
 * plugin); item lists are RecommendationItemInterface (stored items) or RecommendationItemInput
 * (the request's, validated).
 */

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
