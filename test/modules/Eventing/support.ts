export const ITEMS_ADDED = 'observer.dispensary_recommendation_items_add_after';
