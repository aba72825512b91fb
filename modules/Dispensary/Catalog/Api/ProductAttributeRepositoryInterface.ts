import {
  defineContract,
  Joi,
  searchCriteriaParameter,
  type SearchCriteria,
  type SearchFields,
  type SearchResults,
} from '#framework';
import type { ProductAttributeInterface } from './Data/ProductAttributeInterface.js';

/**
 * What GET /V1/products/attributes filters and sorts by: the columns of Magento's attribute
 * collection (eav_attribute joined with catalog_eav_attribute) for the attributes this catalog has.
 */
export const PRODUCT_ATTRIBUTE_SEARCH_FIELDS: SearchFields = {
  attribute_id: 'integer',
  attribute_code: 'text',
  entity_type_id: 'integer',
  frontend_input: 'text',
  backend_type: 'text',
  frontend_label: 'text',
  is_required: 'boolean',
  is_user_defined: 'boolean',
  is_unique: 'boolean',
  is_global: 'integer',
  position: 'integer',
  is_visible: 'boolean',
  is_searchable: 'boolean',
  is_filterable: 'boolean',
  is_comparable: 'boolean',
  is_visible_on_front: 'boolean',
  used_in_product_listing: 'boolean',
  used_for_sort_by: 'boolean',
  is_used_in_grid: 'boolean',
  is_visible_in_grid: 'boolean',
  is_filterable_in_grid: 'boolean',
};

/** Magento's `Catalog\Api\ProductAttributeRepositoryInterface`, the read part: the metadata of the product fields this catalog keeps. */
export interface ProductAttributeRepositoryInterface {
  /** Magento's message and a 404 for a code it does not know. */
  get(attributeCode: string): Promise<ProductAttributeInterface>;
  getList(searchCriteria: SearchCriteria): Promise<SearchResults<ProductAttributeInterface>>;
}

export const ProductAttributeRepositoryInterface = defineContract<ProductAttributeRepositoryInterface>(
  'Dispensary\\Catalog\\Api\\ProductAttributeRepositoryInterface',
  {
    get: {
      params: [{ name: 'attributeCode', schema: Joi.string().max(255).required() }],
      description: 'A product attribute by its code',
    },
    getList: {
      params: [searchCriteriaParameter(PRODUCT_ATTRIBUTE_SEARCH_FIELDS)],
      description: 'Product attributes matching search criteria',
    },
  },
);
