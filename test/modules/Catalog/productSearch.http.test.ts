import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';
import type { InjectResponse } from '../../support/inject.js';

const INVALID = 'Invalid value of "%value" provided for the %fieldName field.';

interface Product {
  id: number;
  sku: string;
  name: string;
  price: number;
}

describe('Catalog: GET /V1/products with search criteria', () => {
  let t: TestApp;
  let allStores: string;
  let storeBound: string;
  const ids: Record<string, number> = {};

  const CATALOG: [string, string, number, 1 | 2][] = [
    ['VIT-D3', 'Vitamin D3', 12.5, 1],
    ['vit-c', 'Vitamin C 500', 8, 2],
    ['OMEGA-3', 'Omega-3 Fish Oil', 24, 1],
    ['ZINC', 'Zinc', 30, 1],
    ['ÉCOLE-1', 'École Blend', 5, 1],
    ['PCT_100%', '100% Pure', 3, 1],
    ['TAGS', 'red,Green,blue', 1, 1],
  ];

  before(async () => {
    t = await TestApp.start();
    allStores = await t.integrationToken({ allStores: true });
    storeBound = await t.integrationToken({ store: 'default' });
    for (const [i, [sku, name, price, status]] of CATALOG.entries()) {
      const res = await t
        .request()
        .post('/rest/all/V1/products')
        .set('Authorization', `Bearer ${allStores}`)
        .send({ product: { sku, name, price, status } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids[sku] = res.body.id;
      // Fixed, distinct times (no sleeping): product i was created on day i+1 and updated an hour later.
      const day = String(i + 1).padStart(2, '0');
      await t.app
        .knex('catalog_product')
        .where({ entity_id: res.body.id })
        .update({ created_at: `2026-10-${day} 08:00:00`, updated_at: `2026-10-${day} 09:00:00` });
    }
  });
  after(async () => t?.stop());

  const search = (query: string, token = allStores, scope = 'all') =>
    t.request().get(`/rest/${scope}/V1/products?${query}`).set('Authorization', `Bearer ${token}`);
  const filter = (group: number, index: number, field: string, value: string | null, condition?: string) =>
    [
      `searchCriteria[filter_groups][${group}][filters][${index}][field]=${field}`,
      value === null
        ? ''
        : `searchCriteria[filter_groups][${group}][filters][${index}][value]=${encodeURIComponent(value)}`,
      condition ? `searchCriteria[filter_groups][${group}][filters][${index}][condition_type]=${condition}` : '',
    ]
      .filter(Boolean)
      .join('&');
  const sku = (res: InjectResponse): string[] => {
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.items as Product[]).map((p) => p.sku);
  };
  const sorted = (res: InjectResponse) => sku(res).sort();

  describe('when filtering', () => {
    it('should answer items, the criteria as understood and the total count (like: case-insensitive, % a wildcard)', async () => {
      const res = await search(
        `${filter(0, 0, 'sku', 'vit%', 'like')}&searchCriteria[sortOrders][0][field]=price&searchCriteria[sortOrders][0][direction]=ASC`,
      );
      expect(res.status).to.equal(200);
      expect(res.body).to.have.keys(['items', 'search_criteria', 'total_count']);
      expect(sku(res)).to.deep.equal(['vit-c', 'VIT-D3']);
      expect(res.body.total_count).to.equal(2);
      expect(res.body.search_criteria).to.deep.equal({
        filter_groups: [{ filters: [{ field: 'sku', value: 'vit%', condition_type: 'like' }] }],
        sort_orders: [{ field: 'price', direction: 'ASC' }],
        page_size: 20,
        current_page: 1,
      });
      expect(res.body.items[1]).to.include({ id: ids['VIT-D3'], name: 'Vitamin D3', price: 12.5, status: 1 });
      expect(res.body.items[1].extension_attributes.stock_item).to.include({
        product_id: ids['VIT-D3'],
        is_in_stock: true,
      });
    });

    it('should treat _ as one character and \\ as the escape of % and _', async () => {
      expect(sorted(await search(filter(0, 0, 'sku', 'vit-_', 'like')))).to.deep.equal(['vit-c']);
      expect(sorted(await search(filter(0, 0, 'sku', '%\\%', 'like')))).to.deep.equal(['PCT_100%']);
      expect(sorted(await search(filter(0, 0, 'sku', 'pct\\_%', 'like')))).to.deep.equal(['PCT_100%']);
      expect(sorted(await search(filter(0, 0, 'name', '%\\_%', 'like')))).to.deep.equal([]);
      expect(sku(await search(filter(0, 0, 'sku', '%', 'nlike')))).to.deep.equal([]);
    });

    it('should compare text case-insensitively but accent-sensitively, for eq, in and like alike', async () => {
      expect(sorted(await search(filter(0, 0, 'sku', 'omega-3')))).to.deep.equal(['OMEGA-3']);
      expect(sorted(await search(filter(0, 0, 'name', 'école%', 'like')))).to.deep.equal(['ÉCOLE-1']);
      expect(sorted(await search(filter(0, 0, 'name', 'ecole%', 'like')))).to.deep.equal([]);
      expect(sorted(await search(filter(0, 0, 'sku', 'zinc,OMEGA-3,nope', 'in')))).to.deep.equal(['OMEGA-3', 'ZINC']);
      expect(
        sorted(await search(filter(0, 0, 'sku', 'zinc,omega-3,vit-d3,VIT-C,école-1,pct_100%', 'nin'))),
      ).to.deep.equal(['TAGS']);
      expect(sorted(await search(filter(0, 0, 'sku', 'Vit-C', 'neq')))).to.have.length(CATALOG.length - 1);
      // Trailing spaces count on every database (MySQL's collations would pad them away).
      expect(sorted(await search(filter(0, 0, 'name', 'zinc ')))).to.deep.equal([]);
      expect(sorted(await search(filter(0, 0, 'name', 'zinc,zinc ', 'in')))).to.deep.equal(['ZINC']);
      expect(sorted(await search(filter(0, 0, 'name', 'zinc ', 'lt')))).to.include('ZINC');
    });

    it('should OR the filters of a group and AND the groups', async () => {
      const res = await search(
        `${filter(0, 0, 'sku', 'VIT-D3')}&${filter(0, 1, 'sku', 'OMEGA-3')}&${filter(1, 0, 'price', '20', 'gt')}`,
      );
      expect(sorted(res)).to.deep.equal(['OMEGA-3']);
      expect(res.body.total_count).to.equal(1);
    });

    it("should compare numbers and times with gt, gteq, lt, lteq, from and to; moreq as Magento's adapter does (equality)", async () => {
      expect(sorted(await search(filter(0, 0, 'price', '24', 'gt')))).to.deep.equal(['ZINC']);
      expect(sorted(await search(filter(0, 0, 'price', '24', 'gteq')))).to.deep.equal(['OMEGA-3', 'ZINC']);
      expect(sorted(await search(filter(0, 0, 'price', '3', 'lt')))).to.deep.equal(['TAGS']);
      expect(sorted(await search(filter(0, 0, 'price', '3', 'lteq')))).to.deep.equal(['PCT_100%', 'TAGS']);
      expect(
        sorted(await search(`${filter(0, 0, 'price', '5', 'from')}&${filter(1, 0, 'price', '12.5', 'to')}`)),
      ).to.deep.equal(['vit-c', 'VIT-D3', 'ÉCOLE-1'].sort());
      expect(sorted(await search(filter(0, 0, 'price', '24', 'moreq')))).to.deep.equal(['OMEGA-3']);
      expect(sorted(await search(filter(0, 0, 'status', '2')))).to.deep.equal(['vit-c']);
      expect(sorted(await search(filter(0, 0, 'entity_id', `${ids.ZINC},${ids.TAGS}`, 'in')))).to.deep.equal([
        'TAGS',
        'ZINC',
      ]);
      // What changed since a time: products 6 and 7 were updated on 2026-10-06 and -07 at 09:00.
      expect(sorted(await search(filter(0, 0, 'updated_at', '2026-10-06 08:59:59', 'gt')))).to.deep.equal([
        'PCT_100%',
        'TAGS',
      ]);
      expect(sorted(await search(filter(0, 0, 'updated_at', '2026-10-06T09:00:00Z', 'gt')))).to.deep.equal(['TAGS']);
      expect(sorted(await search(filter(0, 0, 'created_at', '2026-10-02', 'to')))).to.deep.equal(['VIT-D3']);
      expect(sorted(await search(filter(0, 0, 'created_at', '2026-10-0_ 08%', 'like')))).to.have.length(CATALOG.length);
    });

    it('should match null and notnull, and finset/nfinset as FIND_IN_SET does', async () => {
      expect(sku(await search(filter(0, 0, 'name', null, 'null')))).to.deep.equal([]);
      expect(sku(await search(filter(0, 0, 'name', null, 'notnull')))).to.have.length(CATALOG.length);
      expect(sorted(await search(filter(0, 0, 'name', 'green', 'finset')))).to.deep.equal(['TAGS']);
      expect(sorted(await search(filter(0, 0, 'name', 're', 'finset')))).to.deep.equal([]);
      expect(sorted(await search(filter(0, 0, 'name', 'red,green', 'finset')))).to.deep.equal([]);
      expect(sorted(await search(filter(0, 0, 'name', 'BLUE', 'nfinset'))))
        .to.have.length(CATALOG.length - 1)
        .and.not.include('TAGS');
    });

    it('should bind values, never splice them into SQL', async () => {
      for (const value of ["x' OR '1'='1", 'x"); DROP TABLE catalog_product; --', "%' OR 1=1 --"]) {
        expect(sku(await search(filter(0, 0, 'sku', value)))).to.deep.equal([]);
        expect(sku(await search(filter(0, 0, 'name', value, 'like')))).to.deep.equal([]);
      }
      expect(sku(await search('searchCriteria='))).to.have.length(CATALOG.length);
    });
  });

  describe('when sorting and paging', () => {
    it('should sort text case-insensitively, and page with the total counting every match', async () => {
      const byName = sku(
        await search(
          'searchCriteria[sortOrders][0][field]=name&searchCriteria[sortOrders][0][direction]=ASC&searchCriteria[pageSize]=300',
        ),
      );
      expect(byName).to.deep.equal(['PCT_100%', 'OMEGA-3', 'TAGS', 'vit-c', 'VIT-D3', 'ZINC', 'ÉCOLE-1']);
      const pages: string[] = [];
      for (const page of [1, 2, 3]) {
        const res = await search(
          `searchCriteria[sortOrders][0][field]=name&searchCriteria[sortOrders][0][direction]=ASC&searchCriteria[pageSize]=3&searchCriteria[currentPage]=${page}`,
        );
        expect(res.body.total_count).to.equal(CATALOG.length);
        expect(res.body.search_criteria).to.include({ page_size: 3, current_page: page });
        pages.push(...sku(res));
      }
      expect(pages).to.deep.equal(byName);
      const beyond = await search('searchCriteria[pageSize]=3&searchCriteria[currentPage]=4');
      expect(beyond.body).to.deep.include({ items: [], total_count: CATALOG.length });
    });

    it('should sort descending when no direction is given (Magento), then by several fields', async () => {
      expect(sku(await search('searchCriteria[sortOrders][0][field]=price'))[0]).to.equal('ZINC');
      const res = await search(
        'searchCriteria[sortOrders][0][field]=status&searchCriteria[sortOrders][0][direction]=DESC&searchCriteria[sortOrders][1][field]=price&searchCriteria[sortOrders][1][direction]=ASC',
      );
      expect(sku(res)).to.deep.equal(['vit-c', 'TAGS', 'PCT_100%', 'ÉCOLE-1', 'VIT-D3', 'OMEGA-3', 'ZINC']);
    });

    it('should answer only the fields asked for with ?fields=', async () => {
      const res = await search(`${filter(0, 0, 'sku', 'ZINC')}&fields=items[sku,price],total_count`);
      expect(res.body).to.deep.equal({ items: [{ sku: 'ZINC', price: 30 }], total_count: 1 });
    });
  });

  describe('when the criteria are bad', () => {
    const bad = async (query: string, body: unknown) => {
      const res = await search(query);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.deep.equal(body);
    };

    it('should answer Magento 400 bodies naming the field', async () => {
      await bad(filter(0, 0, 'password', 'x'), {
        message: INVALID,
        parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][field]', value: 'password' },
      });
      await bad('searchCriteria[sortOrders][0][field]=sku_key', {
        message: INVALID,
        parameters: { fieldName: 'searchCriteria[sortOrders][0][field]', value: 'sku_key' },
      });
      await bad(filter(0, 0, 'sku', 'x', 'regexp'), {
        message: INVALID,
        parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][condition_type]', value: 'regexp' },
      });
      await bad(filter(0, 0, 'price', 'cheap'), {
        message: INVALID,
        parameters: { fieldName: 'searchCriteria[filter_groups][0][filters][0][value]', value: 'cheap' },
      });
      await bad('searchCriteria[pageSize]=0', {
        message: 'Minimum SearchCriteria pageSize is %min',
        parameters: { min: 1 },
      });
      await bad('searchCriteria[pageSize]=301', {
        message: 'Maximum SearchCriteria pageSize is %max',
        parameters: { max: 300 },
      });
      await bad('searchCriteria[currentPage]=two', {
        message: 'Error occurred during "currentPage" processing. Invalid type for value: "two". Expected Type: "int".',
        parameters: { fieldName: 'searchCriteria[currentPage]' },
      });
      await bad('', {
        message: '"%fieldName" is required. Enter and try again.',
        parameters: { fieldName: 'searchCriteria' },
      });
    });

    it('should refuse a query string the parser would cut (more than 1000 parameters)', async () => {
      const padding = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=`).join('&');
      const res = await search(`searchCriteria=&${padding(1000)}`);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'The query string has %count parameters; at most %max are accepted.',
        parameters: { count: 1001, max: 1000 },
      });
      const most = await search(`${padding(999)}&searchCriteria[pageSize]=1`);
      expect(most.status, JSON.stringify(most.body)).to.equal(200);
      expect(most.body.search_criteria.page_size).to.equal(1);
    });

    it('should list several problems in one aggregated 400', async () => {
      const res = await search(`${filter(0, 0, 'nope', 'x')}&searchCriteria[pageSize]=1000`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('One or more input exceptions have occurred.');
      expect(res.body.errors).to.have.length(2);
    });
  });

  describe('when the caller is bound to a store', () => {
    it('should see the whole (global) catalog, and a guest nothing', async () => {
      expect(sku(await search('searchCriteria=', storeBound, 'default'))).to.have.length(CATALOG.length);
      const guest = await t.request().get('/rest/all/V1/products?searchCriteria=');
      expect(guest.status).to.equal(401);
    });
  });

  describe('when the schema is read', () => {
    it('should describe the search criteria query parameters of GET /V1/products', async () => {
      const res = await t.request().get('/rest/default/schema');
      const parameters = res.body.paths['/V1/products'].get.parameters as { name: string; enum?: string[] }[];
      const field = parameters.find((p) => p.name === 'searchCriteria[filterGroups][0][filters][0][field]');
      expect(field?.enum).to.include.members(['sku', 'name', 'price', 'updated_at']);
      expect(parameters.map((p) => p.name)).to.include.members([
        'searchCriteria[pageSize]',
        'searchCriteria[currentPage]',
        'searchCriteria[sortOrders][0][direction]',
      ]);
      expect(res.body.paths['/V1/products/{sku}'].put).to.be.an('object');
      expect(res.body.paths['/V1/products/{sku}'].delete).to.be.an('object');
      expect(res.body.paths['/V1/stockItems/{productSku}'].get).to.be.an('object');
    });
  });
});
