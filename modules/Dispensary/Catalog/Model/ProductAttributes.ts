/**
 * The product attributes of this catalog, as Magento defines them for the same fields
 * (Catalog\Setup\CategorySetup, CatalogInventory's quantity_and_stock_status): codes, types,
 * inputs, labels, models, options and flags are Magento's. Two things differ, on purpose:
 * * `scope` is `global` for every attribute: this catalog keeps one value per product for all
 *   stores, so a client told `store` or `website` would expect values per store that do not exist
 *   (Magento has name `store`, price and status `website`);
 * * the attribute ids are this catalog's own (a Magento install numbers them as it goes).
 */
import {
  PRODUCT_ENTITY_TYPE_ID,
  type AttributeOption,
  type AttributeScope,
  type ProductAttributeInterface,
} from '../Api/Data/ProductAttributeInterface.js';

export interface ProductAttributeDefinition {
  readonly id: number;
  readonly code: string;
  readonly label: string | null;
  readonly input: string;
  readonly backendType: 'static' | 'varchar' | 'decimal' | 'int' | 'datetime' | 'text';
  readonly backendModel?: string;
  readonly sourceModel?: string;
  readonly frontendClass?: string;
  readonly defaultValue?: string;
  readonly required: boolean;
  readonly unique: boolean;
  readonly visible: boolean;
  readonly searchable: boolean;
  readonly filterable: boolean;
  readonly comparable: boolean;
  readonly visibleInAdvancedSearch: boolean;
  readonly usedInProductListing: boolean;
  readonly usedForSortBy: boolean;
  readonly usedInGrid: boolean;
  readonly visibleInGrid: boolean;
  readonly filterableInGrid: boolean;
  readonly applyTo: readonly string[];
  readonly options: readonly AttributeOption[];
}

const SCOPE: AttributeScope = 'global';
/** Magento's catalog_eav_attribute.is_global for that scope. */
export const IS_GLOBAL: Record<AttributeScope, number> = { store: 0, global: 1, website: 2 };

const PRICE_TYPES = ['simple', 'virtual', 'bundle', 'downloadable', 'configurable'];

const base = {
  backendType: 'static',
  required: false,
  unique: false,
  visible: true,
  searchable: false,
  filterable: false,
  comparable: false,
  visibleInAdvancedSearch: false,
  usedInProductListing: false,
  usedForSortBy: false,
  usedInGrid: false,
  visibleInGrid: false,
  filterableInGrid: false,
  applyTo: [],
  options: [],
} as const;

export const PRODUCT_ATTRIBUTES: readonly ProductAttributeDefinition[] = [
  {
    ...base,
    id: 73,
    code: 'name',
    label: 'Product Name',
    input: 'text',
    backendType: 'varchar',
    frontendClass: 'validate-length maximum-length-255',
    required: true,
    searchable: true,
    visibleInAdvancedSearch: true,
    usedInProductListing: true,
    usedForSortBy: true,
    usedInGrid: true,
    filterableInGrid: true,
  },
  {
    ...base,
    id: 74,
    code: 'sku',
    label: 'SKU',
    input: 'text',
    backendModel: 'Magento\\Catalog\\Model\\Product\\Attribute\\Backend\\Sku',
    frontendClass: 'validate-length maximum-length-64',
    required: true,
    unique: true,
    searchable: true,
    comparable: true,
    visibleInAdvancedSearch: true,
    usedInGrid: true,
    filterableInGrid: true,
  },
  {
    ...base,
    id: 77,
    code: 'price',
    label: 'Price',
    input: 'price',
    backendType: 'decimal',
    backendModel: 'Magento\\Catalog\\Model\\Product\\Attribute\\Backend\\Price',
    required: true,
    searchable: true,
    filterable: true,
    comparable: true,
    visibleInAdvancedSearch: true,
    usedInProductListing: true,
    usedForSortBy: true,
    usedInGrid: true,
    filterableInGrid: true,
    applyTo: PRICE_TYPES,
  },
  {
    ...base,
    id: 94,
    code: 'created_at',
    label: null,
    input: 'date',
    backendModel: 'Magento\\Eav\\Model\\Entity\\Attribute\\Backend\\Time\\Created',
    visible: false,
  },
  {
    ...base,
    id: 95,
    code: 'updated_at',
    label: null,
    input: 'date',
    backendModel: 'Magento\\Eav\\Model\\Entity\\Attribute\\Backend\\Time\\Updated',
    visible: false,
  },
  {
    ...base,
    id: 97,
    code: 'status',
    label: 'Enable Product',
    input: 'boolean',
    backendType: 'int',
    sourceModel: 'Magento\\Catalog\\Model\\Product\\Attribute\\Source\\Status',
    defaultValue: '1',
    usedInProductListing: true,
    usedInGrid: true,
    visibleInGrid: true,
    filterableInGrid: true,
    options: [
      { label: 'Enabled', value: '1' },
      { label: 'Disabled', value: '2' },
    ],
  },
  {
    ...base,
    id: 115,
    code: 'quantity_and_stock_status',
    label: 'Quantity',
    input: 'select',
    backendType: 'int',
    backendModel: 'Magento\\Catalog\\Model\\Product\\Attribute\\Backend\\Stock',
    sourceModel: 'Magento\\CatalogInventory\\Model\\Source\\Stock',
    defaultValue: '1',
    options: [
      { label: 'In Stock', value: '1' },
      { label: 'Out of Stock', value: '0' },
    ],
  },
];

const flag = (value: boolean): '0' | '1' => (value ? '1' : '0');

/** The web API's answer for a definition, keys in Magento's order, null values left out. */
export function toProductAttribute(definition: ProductAttributeDefinition): ProductAttributeInterface {
  const d = definition;
  const answer: Record<string, unknown> = {
    is_wysiwyg_enabled: false,
    is_html_allowed_on_front: false,
    used_for_sort_by: d.usedForSortBy,
    is_filterable: d.filterable,
    is_filterable_in_search: false,
    is_used_in_grid: d.usedInGrid,
    is_visible_in_grid: d.visibleInGrid,
    is_filterable_in_grid: d.filterableInGrid,
    position: 0,
    apply_to: [...d.applyTo],
    is_searchable: flag(d.searchable),
    is_visible_in_advanced_search: flag(d.visibleInAdvancedSearch),
    is_comparable: flag(d.comparable),
    is_used_for_promo_rules: '0',
    is_visible_on_front: '0',
    used_in_product_listing: flag(d.usedInProductListing),
    is_visible: d.visible,
    scope: SCOPE,
    attribute_id: d.id,
    attribute_code: d.code,
    frontend_input: d.input,
    entity_type_id: String(PRODUCT_ENTITY_TYPE_ID),
    is_required: d.required,
    options: d.options.map((o) => ({ ...o })),
    is_user_defined: false,
    default_frontend_label: d.label ?? undefined,
    frontend_labels: [],
    backend_type: d.backendType,
    backend_model: d.backendModel,
    source_model: d.sourceModel,
    default_value: d.defaultValue,
    is_unique: flag(d.unique),
    frontend_class: d.frontendClass,
    validation_rules: [],
  };
  for (const key of Object.keys(answer)) if (answer[key] === undefined) delete answer[key];
  return answer as unknown as ProductAttributeInterface;
}

/** The searchable columns of a definition (table catalog_product_attribute). */
export function attributeRow(d: ProductAttributeDefinition): Record<string, string | number | boolean | null> {
  return {
    attribute_id: d.id,
    attribute_code: d.code,
    entity_type_id: PRODUCT_ENTITY_TYPE_ID,
    frontend_input: d.input,
    backend_type: d.backendType,
    frontend_label: d.label,
    is_required: d.required,
    is_user_defined: false,
    is_unique: d.unique,
    is_global: IS_GLOBAL[SCOPE],
    position: 0,
    is_visible: d.visible,
    is_searchable: d.searchable,
    is_filterable: d.filterable,
    is_comparable: d.comparable,
    is_visible_on_front: false,
    used_in_product_listing: d.usedInProductListing,
    used_for_sort_by: d.usedForSortBy,
    is_used_in_grid: d.usedInGrid,
    is_visible_in_grid: d.visibleInGrid,
    is_filterable_in_grid: d.filterableInGrid,
  };
}
