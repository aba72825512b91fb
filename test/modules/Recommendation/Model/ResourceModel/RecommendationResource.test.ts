import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  ADMIN_STORE,
  isUniqueViolation,
  NoSuchEntityException,
  type Store,
} from '../../../../../app/framework/index.js';
import {
  RecommendationResource,
  toItem,
} from '../../../../../modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.js';
import { StoreRepositoryInterface } from '../../../../../modules/Dispensary/Store/Api/StoreRepositoryInterface.js';
import { TestApp } from '../../../../support/testApp.js';
import { inStore, itemRow, newRecommendation, saveProducts } from '../support.js';

describe('Recommendation: RecommendationResource', () => {
  let t: TestApp;
  let resource: RecommendationResource;
  let main: Store;
  let alpha: Store;

  before(async () => {
    t = await TestApp.start();
    await t.createStore('alpha');
    resource = t.app.get<RecommendationResource>(
      'Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource',
    );
    const stores = t.app.get<StoreRepositoryInterface>(StoreRepositoryInterface);
    main = (await stores.getStoreByCode('default'))!;
    alpha = (await stores.getStoreByCode('alpha'))!;
    await saveProducts(t, { sku: 'RR-A', qty: 5 }, { sku: 'RR-B', qty: 0 }, { sku: 'RR-C', qty: 1 });
  });
  after(async () => t?.stop());

  const notFound = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => expect.fail('expected a 404'),
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NoSuchEntityException);
    return error as NoSuchEntityException;
  };

  describe('load', () => {
    it('should find a recommendation by its id (any case, spaces around), in its store and in `all`', async () => {
      const id = await newRecommendation(t, resource, main);
      for (const spelling of [id, id.toUpperCase(), `  ${id}\n`]) {
        expect((await inStore(main, () => resource.load(spelling))).recommendation_id).to.equal(id);
      }
      expect((await inStore(ADMIN_STORE, () => resource.load(id))).store_id).to.equal(main.id);
      // Outside any request the scope is the admin one.
      expect((await resource.load(id, true)).recommendation_id).to.equal(id);
    });

    it("should answer 404 under another store's scope, as for an id that does not exist", async () => {
      const id = await newRecommendation(t, resource, main);
      const other = await notFound(inStore(alpha, () => resource.load(id)));
      expect([other.phrase, other.parameters]).to.deep.equal([
        'No such entity with %fieldName = %fieldValue',
        { fieldName: 'recommendation_id', fieldValue: id },
      ]);
      await notFound(inStore(alpha, () => resource.load(id, true)));
      await notFound(inStore(main, () => resource.load(randomUUID())));
    });

    it('should answer 404 without a query for what is no UUID, and shorten a long id in the message', async () => {
      for (const bad of ['', 'abc', `${randomUUID()}x`, "' or 1=1 --"]) {
        expect((await notFound(resource.load(bad))).parameters).to.deep.equal({
          fieldName: 'recommendation_id',
          fieldValue: bad,
        });
      }
      const long = 'x'.repeat(100);
      expect((await notFound(resource.load(long))).parameters).to.deep.equal({
        fieldName: 'recommendation_id',
        fieldValue: `${'x'.repeat(64)}...`,
      });
    });
  });

  describe('items', () => {
    it("should read items in the order first added, with the catalog's sku spelling and stock", async () => {
      const id = await newRecommendation(t, resource, main);
      const rows = [
        itemRow(id, 'rr-c', { qty: 3 }),
        itemRow(id, 'rr-a'),
        itemRow(id, 'rr-b', { doctor_id: 7, location_id: 9, note: 'n' }),
      ];
      await resource.insertItems(rows);
      const items = await resource.readItems(id);
      expect(items.map((i) => [i.item_id, i.sku, i.qty, i.availability])).to.deep.equal([
        [rows[0]!.item_id, 'RR-C', 3, 'in stock'],
        [rows[1]!.item_id, 'RR-A', 1, 'in stock'],
        [rows[2]!.item_id, 'RR-B', 1, 'out of stock'],
      ]);
      expect(items[2]).to.include({
        doctor_id: 7,
        location_id: 9,
        note: 'n',
        autoship_interval: 'once',
        fulfillment_type: 'automatic',
      });
      expect((await resource.readKeyedItems(id)).map((k) => k.key)).to.deep.equal(['rr-c', 'rr-a', 'rr-b']);
    });

    it('should keep an item whose product left the catalog, under its stored sku and out of stock', async () => {
      const id = await newRecommendation(t, resource, main);
      await resource.insertItems([itemRow(id, 'rr-gone')]);
      expect((await resource.readItems(id)).map((i) => [i.sku, i.availability])).to.deep.equal([
        ['rr-gone', 'out of stock'],
      ]);
    });

    it('should read the items of several recommendations in one go, an empty list for one without', async () => {
      const [one, two, none] = [
        await newRecommendation(t, resource, main),
        await newRecommendation(t, resource, alpha),
        await newRecommendation(t, resource, main),
      ];
      await resource.insertItems([itemRow(one, 'rr-a'), itemRow(two, 'rr-b'), itemRow(one, 'rr-c')]);
      const byId = await resource.readItemsOf([one, two, none]);
      expect([...byId.keys()]).to.deep.equal([one, two, none]);
      expect(byId.get(one)!.map((i) => i.sku)).to.deep.equal(['RR-A', 'RR-C']);
      expect(byId.get(two)!.map((i) => i.sku)).to.deep.equal(['RR-B']);
      expect(byId.get(none)).to.deep.equal([]);
      expect((await resource.readItemsOf([])).size).to.equal(0);
    });

    it('should skip a sku key already held when ignoring existing ones; insertItems refuses it', async () => {
      const id = await newRecommendation(t, resource, main);
      await resource.insertItems([itemRow(id, 'rr-a', { qty: 1 })]);
      await resource.insertItemsIgnoringExisting([itemRow(id, 'rr-a', { qty: 9 }), itemRow(id, 'rr-b')]);
      expect((await resource.readItems(id)).map((i) => [i.sku, i.qty])).to.deep.equal([
        ['RR-A', 1],
        ['RR-B', 1],
      ]);
      const error = await resource.insertItems([itemRow(id, 'rr-b')]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(error)).to.equal(true);
    });

    it('should insert more rows than one statement may carry on SQLite (chunks of 100)', async () => {
      const id = await newRecommendation(t, resource, main);
      const rows = Array.from({ length: 601 }, (_, i) => itemRow(id, `rr-bulk-${i}`));
      await resource.insertItemsIgnoringExisting(rows);
      const other = await newRecommendation(t, resource, main);
      await resource.insertItems(rows.map((r) => ({ ...r, item_id: randomUUID(), recommendation_id: other })));
      expect(await resource.readItems(id)).to.have.length(601);
      expect((await resource.readItems(other)).map((i) => i.sku)).to.deep.equal(rows.map((r) => r.sku));
    });

    it('should update only the fields given, and nothing for no field', async () => {
      const id = await newRecommendation(t, resource, main);
      const row = itemRow(id, 'rr-a', { note: 'keep', doctor_id: 3 });
      await resource.insertItems([row]);
      await resource.updateItem(row.item_id, { qty: 4, fulfillment_type: 'LC', doctor_id: null });
      await resource.updateItem(row.item_id, { qty: undefined });
      await resource.updateItem(row.item_id, {});
      expect((await resource.readItems(id))[0]).to.include({
        qty: 4,
        fulfillment_type: 'LC',
        doctor_id: null,
        note: 'keep',
      });
    });

    it("should delete only this recommendation's items (any case, each once), ignoring non-UUIDs", async () => {
      const [id, other] = [await newRecommendation(t, resource, main), await newRecommendation(t, resource, main)];
      const [a, b, c] = [itemRow(id, 'rr-a'), itemRow(id, 'rr-b'), itemRow(other, 'rr-c')];
      await resource.insertItems([a, b, c]);
      expect(await resource.deleteItems(id, [])).to.equal(0);
      expect(await resource.deleteItems(id, ['not-a-uuid', "' or 1=1 --"])).to.equal(0);
      expect(await resource.deleteItems(id, [c.item_id])).to.equal(0);
      expect(await resource.deleteItems(id, [` ${a.item_id.toUpperCase()} `, a.item_id, randomUUID()])).to.equal(1);
      expect((await resource.readItems(id)).map((i) => i.item_id)).to.deep.equal([b.item_id]);
      expect(await resource.readItems(other)).to.have.length(1);
    });

    it('should touch updated_at of the one recommendation', async () => {
      const [id, other] = [await newRecommendation(t, resource, main), await newRecommendation(t, resource, main)];
      await resource.touch(id, '2026-11-25 10:00:00');
      expect((await resource.load(id)).updated_at).to.equal('2026-11-25 10:00:00');
      expect((await resource.load(other)).updated_at).to.equal('2026-01-01 00:00:00');
    });
  });

  describe('toItem', () => {
    it('should answer a stored fulfillment type it does not know as automatic, and numbers as numbers', () => {
      const row = itemRow('r', 'x', {
        fulfillment_type: 'drone',
        doctor_id: '12' as unknown as number,
        qty: '3' as unknown as number,
      });
      expect(toItem(row, null, false)).to.include({
        sku: 'x',
        fulfillment_type: 'automatic',
        doctor_id: 12,
        qty: 3,
        location_id: null,
        availability: 'out of stock',
      });
      expect(toItem({ ...row, fulfillment_type: '1L' }, 'X', true)).to.include({
        sku: 'X',
        fulfillment_type: '1L',
        availability: 'in stock',
      });
    });
  });
});
