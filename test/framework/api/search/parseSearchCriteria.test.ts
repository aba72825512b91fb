import { expect } from 'chai';
import qs from 'qs';
import { InputException } from '../../../../app/framework/exception/index.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  normaliseTimestamp,
  parseSearchCriteria,
  type SearchFields,
} from '../../../../app/framework/api/search/index.js';

const FIELDS: SearchFields = {
  sku: 'text',
  entity_id: 'integer',
  price: 'decimal',
  active: 'boolean',
  created_at: 'timestamp',
};
const INVALID = 'Invalid value of "%value" provided for the %fieldName field.';

/** The query string as Express's extended parser (qs, allowPrototypes) reads it, then the parser. */
function parse(query: string) {
  const parsed = qs.parse(query, { allowPrototypes: true }) as Record<string, unknown>;
  return parseSearchCriteria(parsed.searchCriteria, FIELDS);
}

function errors(query: string): { phrase: string; parameters: Record<string, unknown> }[] {
  try {
    parse(query);
  } catch (error) {
    expect(error).to.be.instanceOf(InputException);
    return (error as InputException).errors as { phrase: string; parameters: Record<string, unknown> }[];
  }
  throw new Error(`${query} was accepted`);
}

const f = (group: number, filter: number, key: string) =>
  `searchCriteria[filter_groups][${group}][filters][${filter}][${key}]`;

describe('parseSearchCriteria', () => {
  describe('when the criteria are well formed', () => {
    it("should read Magento's bracketed format: groups of filters, sort orders, page", () => {
      const criteria = parse(
        `${f(0, 0, 'field')}=sku&${f(0, 0, 'value')}=VIT%25&${f(0, 0, 'condition_type')}=like&` +
          `${f(0, 1, 'field')}=entity_id&${f(0, 1, 'value')}=1,2,3&${f(0, 1, 'condition_type')}=in&` +
          `${f(1, 0, 'field')}=price&${f(1, 0, 'value')}=9.5&${f(1, 0, 'condition_type')}=gteq&` +
          'searchCriteria[sortOrders][0][field]=created_at&searchCriteria[sortOrders][0][direction]=asc&' +
          'searchCriteria[pageSize]=5&searchCriteria[currentPage]=2',
      );
      expect(criteria).to.deep.equal({
        filterGroups: [
          {
            filters: [
              { field: 'sku', conditionType: 'like', value: 'VIT%', values: ['VIT%'] },
              { field: 'entity_id', conditionType: 'in', value: '1,2,3', values: [1, 2, 3] },
            ],
          },
          { filters: [{ field: 'price', conditionType: 'gteq', value: '9.5', values: [9.5] }] },
        ],
        sortOrders: [{ field: 'created_at', direction: 'ASC' }],
        pageSize: 5,
        currentPage: 2,
      });
    });

    it('should default to eq, DESC, the default page size and page 1; `searchCriteria=` alone is no criteria', () => {
      expect(
        parse(`${f(0, 0, 'field')}=sku&${f(0, 0, 'value')}=A&searchCriteria[sortOrders][0][field]=sku`),
      ).to.deep.equal({
        filterGroups: [{ filters: [{ field: 'sku', conditionType: 'eq', value: 'A', values: ['A'] }] }],
        sortOrders: [{ field: 'sku', direction: 'DESC' }],
        pageSize: DEFAULT_PAGE_SIZE,
        currentPage: 1,
      });
      expect(parse('searchCriteria=')).to.deep.equal({
        filterGroups: [],
        sortOrders: [],
        pageSize: DEFAULT_PAGE_SIZE,
        currentPage: 1,
      });
    });

    it('should accept the camelCase spellings Magento accepts', () => {
      const criteria = parse(
        'searchCriteria[filterGroups][0][filters][0][field]=active&searchCriteria[filterGroups][0][filters][0][value]=true&' +
          'searchCriteria[filterGroups][0][filters][0][conditionType]=neq&searchCriteria[page_size]=3&searchCriteria[current_page]=4',
      );
      expect(criteria.filterGroups[0]!.filters[0]).to.deep.equal({
        field: 'active',
        conditionType: 'neq',
        value: 'true',
        values: [true],
      });
      expect([criteria.pageSize, criteria.currentPage]).to.deep.equal([3, 4]);
    });

    it("should read indices above qs's array limit (20), in index order", () => {
      const query = [25, 3, 21].map((g, i) => `${f(g, 0, 'field')}=entity_id&${f(g, 0, 'value')}=${i + 1}`).join('&');
      const criteria = parse(query);
      expect(criteria.filterGroups.map((g) => g.filters[0]!.values[0])).to.deep.equal([2, 3, 1]);
      const many = Array.from({ length: 30 }, (_, i) => `${f(0, i, 'field')}=entity_id&${f(0, i, 'value')}=${i}`).join(
        '&',
      );
      expect(parse(many).filterGroups[0]!.filters.map((x) => x.values[0])).to.deep.equal(
        Array.from({ length: 30 }, (_, i) => i),
      );
    });

    it('should keep every condition type and give null/notnull no value', () => {
      for (const condition of [
        'eq',
        'neq',
        'like',
        'nlike',
        'in',
        'nin',
        'gt',
        'gteq',
        'lt',
        'lteq',
        'from',
        'to',
        'moreq',
        'finset',
        'nfinset',
      ]) {
        const criteria = parse(
          `${f(0, 0, 'field')}=sku&${f(0, 0, 'value')}=x&${f(0, 0, 'condition_type')}=${condition}`,
        );
        expect(criteria.filterGroups[0]!.filters[0]!.conditionType).to.equal(condition);
      }
      const criteria = parse(
        `${f(0, 0, 'field')}=sku&${f(0, 0, 'condition_type')}=null&${f(1, 0, 'field')}=sku&${f(1, 0, 'condition_type')}=notnull`,
      );
      expect(criteria.filterGroups.map((g) => [g.filters[0]!.conditionType, g.filters[0]!.values])).to.deep.equal([
        ['null', []],
        ['notnull', []],
      ]);
    });

    it('should normalise timestamps to UTC `YYYY-MM-DD HH:MM:SS`', () => {
      expect(normaliseTimestamp('2026-11-01')).to.equal('2026-11-01 00:00:00');
      expect(normaliseTimestamp('2026-11-01T10:20')).to.equal('2026-11-01 10:20:00');
      expect(normaliseTimestamp('2026-11-01T10:20:30+02:00')).to.equal('2026-11-01 08:20:30');
      expect(normaliseTimestamp('2026-11-01 23:59:59Z')).to.equal('2026-11-01 23:59:59');
      expect(normaliseTimestamp('2026-02-30')).to.equal(undefined);
      expect(normaliseTimestamp('yesterday')).to.equal(undefined);
    });
  });

  describe('when the criteria are bad', () => {
    it('should name an unknown filter or sort field', () => {
      expect(
        errors(`${f(0, 0, 'field')}=password&${f(0, 0, 'value')}=x&searchCriteria[sortOrders][0][field]=secret`),
      ).to.deep.equal([
        { phrase: INVALID, parameters: { fieldName: f(0, 0, 'field'), value: 'password' } },
        { phrase: INVALID, parameters: { fieldName: 'searchCriteria[sortOrders][0][field]', value: 'secret' } },
      ]);
    });

    it('should name a bad condition type, and one the field type cannot take', () => {
      expect(errors(`${f(0, 0, 'field')}=sku&${f(0, 0, 'value')}=x&${f(0, 0, 'condition_type')}=regexp`)).to.deep.equal(
        [{ phrase: INVALID, parameters: { fieldName: f(0, 0, 'condition_type'), value: 'regexp' } }],
      );
      expect(
        errors(`${f(0, 0, 'field')}=entity_id&${f(0, 0, 'value')}=1%25&${f(0, 0, 'condition_type')}=like`),
      ).to.deep.equal([{ phrase: INVALID, parameters: { fieldName: f(0, 0, 'condition_type'), value: 'like' } }]);
    });

    it("should refuse values that are not of the field's type, and a missing value", () => {
      for (const [field, value] of [
        ['entity_id', 'abc'],
        ['entity_id', '99999999999'],
        ['price', '1e5'],
        ['active', 'maybe'],
        ['created_at', '2026-13-01'],
      ]) {
        expect(errors(`${f(0, 0, 'field')}=${field}&${f(0, 0, 'value')}=${value}`), field).to.deep.equal([
          { phrase: INVALID, parameters: { fieldName: f(0, 0, 'value'), value } },
        ]);
      }
      expect(
        errors(`${f(0, 0, 'field')}=entity_id&${f(0, 0, 'value')}=1,x&${f(0, 0, 'condition_type')}=in`)[0]!.parameters,
      ).to.deep.equal({
        fieldName: f(0, 0, 'value'),
        value: '1,x',
      });
      expect(errors(`${f(0, 0, 'field')}=sku`)).to.deep.equal([
        { phrase: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: f(0, 0, 'value') } },
      ]);
    });

    it("should answer Magento's page size messages for 0 and above the maximum, and name a non-numeric page", () => {
      expect(errors('searchCriteria[pageSize]=0')).to.deep.equal([
        { phrase: 'Minimum SearchCriteria pageSize is %min', parameters: { min: 1 } },
      ]);
      expect(errors(`searchCriteria[pageSize]=${MAX_PAGE_SIZE + 1}`)).to.deep.equal([
        { phrase: 'Maximum SearchCriteria pageSize is %max', parameters: { max: MAX_PAGE_SIZE } },
      ]);
      expect(parse(`searchCriteria[pageSize]=${MAX_PAGE_SIZE}`).pageSize).to.equal(MAX_PAGE_SIZE);
      // Not a number: Magento's type message (SearchCriteria's setters take an int); a number out of range: invalid value.
      expect(errors('searchCriteria[pageSize]=ten')).to.deep.equal([
        {
          phrase: 'Error occurred during "pageSize" processing. Invalid type for value: "ten". Expected Type: "int".',
          parameters: { fieldName: 'searchCriteria[pageSize]' },
        },
      ]);
      expect(errors('searchCriteria[currentPage]=two')).to.deep.equal([
        {
          phrase:
            'Error occurred during "currentPage" processing. Invalid type for value: "two". Expected Type: "int".',
          parameters: { fieldName: 'searchCriteria[currentPage]' },
        },
      ]);
      for (const page of ['0', '-1', '1.5']) {
        expect(errors(`searchCriteria[currentPage]=${page}`), page).to.deep.equal([
          { phrase: INVALID, parameters: { fieldName: 'searchCriteria[currentPage]', value: page } },
        ]);
      }
    });

    it('should list every problem at once, and refuse unknown keys and a bad direction', () => {
      const list = errors(
        'searchCriteria[pageSize]=0&searchCriteria[colour]=red&searchCriteria[sortOrders][0][field]=sku&searchCriteria[sortOrders][0][direction]=UP',
      );
      expect(list.map((e) => e.parameters)).to.deep.equal([
        { fieldName: 'searchCriteria[colour]' },
        { fieldName: 'searchCriteria[sortOrders][0][direction]', value: 'UP' },
        { min: 1 },
      ]);
    });

    it('should refuse shapes qs makes of odd keys (a string for a list, a repeated value)', () => {
      expect(errors('searchCriteria[filter_groups]=x')[0]!.parameters.fieldName).to.equal(
        'searchCriteria[filter_groups]',
      );
      expect(
        errors(`${f(0, 0, 'field')}=sku&${f(0, 0, 'value')}=a&${f(0, 0, 'value')}=b`)[0]!.parameters.fieldName,
      ).to.equal(f(0, 0, 'value'));
      expect(errors('searchCriteria=everything')[0]!.parameters.fieldName).to.equal('searchCriteria');
    });
  });
});
