/**
 * Magento's Catalog\Api\Data\ProductAttributeInterface as the web API answers it: the keys of
 * Catalog\Api\Data\EavAttributeInterface's getters, then Eav\Api\Data\AttributeInterface's, in
 * that order (Magento's REST output follows the getters; a null value is left out, as Magento
 * leaves out a getter answering null). Some flags are strings ("1"/"0"): the interface declares
 * them `string|null` and Magento answers them so.
 */
export interface ProductAttributeInterface {
  is_wysiwyg_enabled: boolean;
  is_html_allowed_on_front: boolean;
  used_for_sort_by: boolean;
  is_filterable: boolean;
  is_filterable_in_search: boolean;
  is_used_in_grid: boolean;
  is_visible_in_grid: boolean;
  is_filterable_in_grid: boolean;
  position: number;
  apply_to: string[];
  is_searchable: '0' | '1';
  is_visible_in_advanced_search: '0' | '1';
  is_comparable: '0' | '1';
  is_used_for_promo_rules: '0' | '1';
  is_visible_on_front: '0' | '1';
  used_in_product_listing: '0' | '1';
  is_visible: boolean;
  scope: AttributeScope;
  attribute_id: number;
  attribute_code: string;
  frontend_input: string;
  entity_type_id: string;
  is_required: boolean;
  options: AttributeOption[];
  is_user_defined: boolean;
  default_frontend_label?: string;
  frontend_labels: { store_id: number; label: string }[];
  backend_type: string;
  backend_model?: string;
  source_model?: string;
  default_value?: string;
  is_unique: '0' | '1';
  frontend_class?: string;
  validation_rules: { key: string; value: string }[];
}

/** Magento's EavAttributeInterface::SCOPE_*_TEXT. */
export type AttributeScope = 'global' | 'website' | 'store';

/** Magento's Eav\Api\Data\AttributeOptionInterface (label, value; value a string). */
export interface AttributeOption {
  label: string;
  value: string;
}

/** Magento's ProductAttributeInterface::ENTITY_TYPE_CODE, and the entity type id of catalog_product. */
export const PRODUCT_ENTITY_TYPE_CODE = 'catalog_product';
export const PRODUCT_ENTITY_TYPE_ID = 4;
