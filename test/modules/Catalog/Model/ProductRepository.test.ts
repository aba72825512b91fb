import { expect } from 'chai';
import {
  ADMIN_STORE,
  AuthorizationException,
  InputException,
  NoSuchEntityException,
  requestContext,
  type Caller,
  type SearchCriteria,
} from '../../../../app/framework/index.js';
import {
  PRODUCT_NOT_FOUND,
  type ProductRepository,
} from '../../../../modules/Dispensary/Catalog/Model/ProductRepository.js';
import { TestApp } from '../../../support/testApp.js';

const ALL_STORES: Caller = { type: 'integration', id: 1, name: 'catalog-test', allStores: true };
const ONE_STORE: Caller = { type: 'integration', id: 2, name: 'one-store', allStores: false };

describe('Catalog: ProductRepository', () => {
  let t: TestApp;
  let products: ProductRepository;
  before(async () => {
    t = await TestApp.start();
    products = t.app.get<ProductRepository>('Dispensary\\Catalog\\Model\\ProductRepository');
  });
  after(async () => t?.stop());

  const as = <R>(caller: Caller, fn: () => Promise<R>): Promise<R> =>
    requestContext.run({ requestId: 'test', store: ADMIN_STORE, caller }, fn);
  const admin = <R>(fn: () => Promise<R>) => as(ALL_STORES, fn);
  const failure = async (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => expect.fail('expected a failure'),
      (error: unknown) => error,
    );
  const rowCount = async (key: string) =>
    Number(((await t.app.knex('catalog_product').where({ sku_key: key }).count({ n: '*' })) as { n: number }[])[0]!.n);

  describe('save', () => {
    it('should create a product enabled, in stock, priced 0 and with qty 0 unless told otherwise', async () => {
      const product = await admin(() => products.save({ sku: '  pr-new  ', name: '  New one  ' }));
      expect(product).to.include({ sku: 'pr-new', name: 'New one', price: 0, status: 1 });
      expect(product.extension_attributes.stock_item).to.include({
        qty: 0,
        is_in_stock: true,
        product_id: product.id,
      });
      expect(product.created_at).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    it('should update an existing sku (trimmed, any case), keeping the fields not given', async () => {
      const first = await admin(() => products.save({ sku: 'PR-Keep', name: 'Keep', price: 12.5, status: 2 }));
      const second = await admin(() => products.save({ sku: ' pr-keep ', name: 'Kept' }));
      expect(second).to.include({ id: first.id, sku: 'pr-keep', name: 'Kept', price: 12.5, status: 2 });
      expect(await rowCount('pr-keep')).to.equal(1);
    });

    it('should treat composed and decomposed accents as one sku (NFC)', async () => {
      const composed = await admin(() => products.save({ sku: 'PR-CAF\u00c9', name: 'composed' }));
      const decomposed = await admin(() => products.save({ sku: 'pr-cafe\u0301', name: 'decomposed' }));
      expect(decomposed.id).to.equal(composed.id);
      expect((await products.get('PR-CAFE\u0301')).name).to.equal('decomposed');
    });

    it('should set the stock status from a qty given without one, and keep an explicit one', async () => {
      const none = await admin(() =>
        products.save({ sku: 'pr-stock', name: 'Stock', extension_attributes: { stock_item: { qty: 0 } } }),
      );
      expect(none.extension_attributes.stock_item).to.include({ qty: 0, is_in_stock: false });
      const some = await admin(() =>
        products.save({ sku: 'pr-stock', name: 'Stock', extension_attributes: { stock_item: { qty: 3 } } }),
      );
      expect(some.extension_attributes.stock_item).to.include({ qty: 3, is_in_stock: true });
      const forced = await admin(() =>
        products.save({
          sku: 'pr-stock',
          name: 'Stock',
          extension_attributes: { stock_item: { qty: 3, is_in_stock: false } },
        }),
      );
      expect(forced.extension_attributes.stock_item).to.include({ qty: 3, is_in_stock: false });
      const nameOnly = await admin(() => products.save({ sku: 'pr-stock', name: 'Stock renamed' }));
      expect(nameOnly.extension_attributes.stock_item).to.include({ qty: 3, is_in_stock: false });
    });

    it('should make one product of many concurrent saves of one new sku', async () => {
      const saved = await Promise.all(
        Array.from({ length: 10 }, (_, i) => admin(() => products.save({ sku: `PR-RACE`, name: `race ${i}` }))),
      );
      expect(new Set(saved.map((p) => p.id)).size).to.equal(1);
      expect(await rowCount('pr-race')).to.equal(1);
    });
  });

  describe('update', () => {
    it('should change only the fields given on an existing product, without a name', async () => {
      await admin(() => products.save({ sku: 'pr-upd', name: 'Update me', price: 5 }));
      const updated = await admin(() => products.update('PR-UPD', { price: 7 }));
      expect(updated).to.include({ sku: 'PR-UPD', name: 'Update me', price: 7, status: 1 });
    });

    it('should not create a product without its name (product.name required), and create one with it', async () => {
      const error = await failure(admin(() => products.update('pr-absent', { price: 1 })));
      expect(error).to.be.instanceOf(InputException);
      expect((error as InputException).parameters).to.deep.equal({ fieldName: 'product.name' });
      expect(await rowCount('pr-absent')).to.equal(0);
      expect((await admin(() => products.update('pr-absent', { name: 'Now present' }))).name).to.equal('Now present');
    });
  });

  describe('get and deleteById', () => {
    it("should answer Magento's 404 for an unknown sku, for get and deleteById", async () => {
      for (const call of [() => products.get('pr-nowhere'), () => admin(() => products.deleteById('pr-nowhere'))]) {
        const error = await failure(call());
        expect(error).to.be.instanceOf(NoSuchEntityException);
        expect((error as NoSuchEntityException).phrase).to.equal(PRODUCT_NOT_FOUND);
      }
    });

    it('should delete by sku in any case, once', async () => {
      await admin(() => products.save({ sku: 'pr-del', name: 'Delete me' }));
      expect(await admin(() => products.deleteById(' PR-DEL '))).to.equal(true);
      expect(await failure(products.get('pr-del'))).to.be.instanceOf(NoSuchEntityException);
      expect(await failure(admin(() => products.deleteById('pr-del')))).to.be.instanceOf(NoSuchEntityException);
    });
  });

  describe('the caller', () => {
    it('should refuse writes to a store-bound caller or a guest (products are global), and let them read', async () => {
      await admin(() => products.save({ sku: 'pr-global', name: 'Global' }));
      for (const caller of [ONE_STORE, undefined]) {
        const run = <R>(fn: () => Promise<R>) => (caller ? as(caller, fn) : fn());
        for (const write of [
          (): Promise<unknown> => products.save({ sku: 'pr-global', name: 'x' }),
          () => products.update('pr-global', { price: 1 }),
          () => products.deleteById('pr-global'),
        ]) {
          const error = await failure(run(write));
          expect(error).to.be.instanceOf(AuthorizationException);
          expect((error as AuthorizationException).parameters).to.deep.equal({
            resources: 'Dispensary_Catalog::products',
          });
        }
        expect((await run(() => products.get('pr-global'))).name).to.equal('Global');
      }
    });
  });

  describe('getBySkus', () => {
    it('should answer the products by sku key, any spelling, once each; not unknown or blank skus', async () => {
      await admin(() => products.save({ sku: 'pr-b1', name: 'B1' }));
      await admin(() => products.save({ sku: 'PR-B2', name: 'B2' }));
      const found = await products.getBySkus(['PR-B1', ' pr-b1', 'pr-b2', 'pr-unknown', '   ', '']);
      expect([...found.keys()].sort()).to.deep.equal(['pr-b1', 'pr-b2']);
      expect(found.get('pr-b2')!.sku).to.equal('PR-B2');
      expect((await products.getBySkus([])).size).to.equal(0);
      expect((await products.getBySkus(['  '])).size).to.equal(0);
    });

    it('should find every product for list lengths that are and are not powers of two, up to 130', async () => {
      const skus = Array.from({ length: 130 }, (_, i) => `pr-many-${i}`);
      for (const sku of skus) await admin(() => products.save({ sku, name: sku }));
      for (const length of [1, 2, 3, 5, 8, 9, 17, 100, 130]) {
        const found = await products.getBySkus(skus.slice(0, length).map((s) => s.toUpperCase()));
        expect(found.size, `${length} skus`).to.equal(length);
      }
    });
  });

  describe('getList', () => {
    const criteria = (overrides: Partial<SearchCriteria>): SearchCriteria => ({
      filterGroups: [],
      sortOrders: [],
      pageSize: 20,
      currentPage: 1,
      ...overrides,
    });

    it('should filter, sort, page and count all matches', async () => {
      for (const [sku, price] of [
        ['pr-list-a', 3],
        ['pr-list-b', 1],
        ['pr-list-c', 2],
      ] as const) {
        await admin(() => products.save({ sku, name: sku, price }));
      }
      const like = {
        filters: [{ field: 'sku', conditionType: 'like' as const, value: 'pr-list-%', values: ['pr-list-%'] }],
      };
      const page = await products.getList(
        criteria({ filterGroups: [like], sortOrders: [{ field: 'price', direction: 'DESC' }], pageSize: 2 }),
      );
      expect(page.total_count).to.equal(3);
      expect(page.items.map((p) => [p.sku, p.price])).to.deep.equal([
        ['pr-list-a', 3],
        ['pr-list-c', 2],
      ]);
      const second = await products.getList(
        criteria({
          filterGroups: [like],
          sortOrders: [{ field: 'price', direction: 'DESC' }],
          pageSize: 2,
          currentPage: 2,
        }),
      );
      expect(second.items.map((p) => p.sku)).to.deep.equal(['pr-list-b']);
      expect(second.search_criteria).to.have.property('current_page', 2);
    });
  });
});
