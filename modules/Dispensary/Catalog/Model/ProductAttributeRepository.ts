import {
  ConnectionProvider,
  FrameworkServices,
  inject,
  injectable,
  NoSuchEntityException,
  runSearch,
  searchCriteriaOutput,
  type SearchColumn,
  type SearchCriteria,
  type SearchResults,
} from '#framework';
import type { ProductAttributeInterface } from '../Api/Data/ProductAttributeInterface.js';
import {
  PRODUCT_ATTRIBUTE_SEARCH_FIELDS,
  type ProductAttributeRepositoryInterface,
} from '../Api/ProductAttributeRepositoryInterface.js';
import { PRODUCT_ATTRIBUTES, toProductAttribute } from './ProductAttributes.js';

const TABLE = 'catalog_product_attribute';

/** Magento's Catalog\Model\Product\Attribute\Repository::get for an unknown code: 404, the code as a positional parameter. */
export const ATTRIBUTE_NOT_FOUND =
  'The attribute with a "%1" attributeCode doesn\'t exist. Verify the attribute and try again.';

const COLUMNS: Record<string, SearchColumn> = Object.fromEntries(
  Object.keys(PRODUCT_ATTRIBUTE_SEARCH_FIELDS).map((field) => [
    field,
    { column: `${TABLE}.${field}`, nullable: field === 'frontend_label' },
  ]),
);

const BY_CODE = new Map(PRODUCT_ATTRIBUTES.map((d) => [d.code, d]));

/**
 * Product attribute metadata: the definitions are code (Model/ProductAttributes.ts), the table
 * their searchable copy. Codes match exactly, as Magento's (case-sensitive) lookup does.
 */
@injectable()
export class ProductAttributeRepository implements ProductAttributeRepositoryInterface {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async get(attributeCode: string): Promise<ProductAttributeInterface> {
    const definition = BY_CODE.get(attributeCode);
    if (!definition) throw new NoSuchEntityException(ATTRIBUTE_NOT_FOUND, [attributeCode]);
    return toProductAttribute(definition);
  }

  async getList(searchCriteria: SearchCriteria): Promise<SearchResults<ProductAttributeInterface>> {
    const query = this.connection.get()(TABLE).select(`${TABLE}.attribute_code`);
    const { rows, total } = await runSearch<{ attribute_code: string }>(query, searchCriteria, {
      fields: PRODUCT_ATTRIBUTE_SEARCH_FIELDS,
      columns: COLUMNS,
      dialect: this.connection.dialect,
      tieBreaker: `${TABLE}.attribute_id`,
    });
    const items = rows.flatMap((row) => {
      const definition = BY_CODE.get(row.attribute_code);
      return definition ? [toProductAttribute(definition)] : [];
    });
    return { items, search_criteria: searchCriteriaOutput(searchCriteria), total_count: total };
  }
}
