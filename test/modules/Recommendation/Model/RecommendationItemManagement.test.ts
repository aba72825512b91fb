import { expect } from 'chai';
import { InputException, NoSuchEntityException, type Store } from '../../../../app/framework/index.js';
import type { RecommendationItemManagement } from '../../../../modules/Dispensary/Recommendation/Model/RecommendationItemManagement.js';
import type { RecommendationResource } from '../../../../modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.js';
import { StoreRepositoryInterface } from '../../../../modules/Dispensary/Store/Api/StoreRepositoryInterface.js';
import { TestApp } from '../../../support/testApp.js';
import { RecordEvents } from '../fixtures/Fixture/RecommendationEvents/Observer/RecordEvents.js';
import { withFixtureModules } from '../support.js';
import { inStore, itemRow, newRecommendation, saveProducts } from './support.js';

const OLD = '2026-01-01 00:00:00';

describe('Recommendation: RecommendationItemManagement', () => {
  let t: TestApp;
  let items: RecommendationItemManagement;
  let resource: RecommendationResource;
  let main: Store;
  let alpha: Store;
  let id: string;

  before(async () => {
    // The fixture modules add an observer that records the events, and a plugin on the interface, which
    // (as in Magento) wraps this class too: it adds plugin_note to the answer, after the event.
    t = await TestApp.start(withFixtureModules());
    await t.createStore('alpha');
    items = t.app.get<RecommendationItemManagement>('Dispensary\\Recommendation\\Model\\RecommendationItemManagement');
    resource = t.app.get<RecommendationResource>(
      'Dispensary\\Recommendation\\Model\\ResourceModel\\RecommendationResource',
    );
    const stores = t.app.get<StoreRepositoryInterface>(StoreRepositoryInterface);
    main = (await stores.getStoreByCode('default'))!;
    alpha = (await stores.getStoreByCode('alpha'))!;
    await saveProducts(
      t,
      { sku: 'IM-A', qty: 5 },
      { sku: 'IM-B', qty: 0 },
      { sku: 'IM-C', qty: 2 },
      { sku: 'IM-OFF', status: 2 },
    );
  });
  after(async () => t?.stop());
  beforeEach(async () => {
    id = await newRecommendation(t, resource, main, OLD);
    await resource.insertItems([itemRow(id, 'im-a', { qty: 2, note: 'first' })]);
    RecordEvents.seen.length = 0;
  });

  const event = () => {
    expect(RecordEvents.seen, 'one event').to.have.length(1);
    return RecordEvents.seen[0]!;
  };
  const updatedAt = async () => (await resource.load(id)).updated_at;
  const failure = async (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('expected a failure'),
      (e: unknown) => e,
    );

  describe('addItems', () => {
    it('should add new skus, ignore ones already there (any case) and repeats, and tell the event', async () => {
      const request = {
        items: [
          { sku: 'IM-B', qty: 1 },
          { sku: 'Im-A', qty: 9 },
          { sku: 'im-b', qty: 4 },
          { sku: 'IM-C', qty: 3, note: 'n' },
        ],
      };
      const result = await inStore(main, () => items.addItems(id, request));
      expect(result.items.map((i) => [i.sku, i.qty, i.availability])).to.deep.equal([
        ['IM-A', 2, 'in stock'],
        ['IM-B', 1, 'out of stock'],
        ['IM-C', 3, 'in stock'],
      ]);
      expect(result.updated_at).to.not.equal(OLD);
      expect(await updatedAt()).to.equal(result.updated_at);
      const { name, data } = event();
      expect(name).to.equal('dispensary_recommendation_items_add_after');
      expect((data.added as { sku: string }[]).map((i) => i.sku)).to.deep.equal(['IM-B', 'IM-C']);
      expect(data.ignored).to.deep.equal([request.items[1], request.items[2]]);
      const { plugin_note: pluginNote, ...answered } = result as typeof result & { plugin_note?: string };
      expect(pluginNote).to.equal('saw 4 item(s)');
      expect(data.recommendation).to.deep.equal(JSON.parse(JSON.stringify(answered)));
      expect((await resource.readItems(id)).map((i) => i.sku)).to.deep.equal(['IM-A', 'IM-B', 'IM-C']);
    });

    it('should change nothing, not even updated_at, when every sku is there; the event still fires', async () => {
      const result = await items.addItems(id, { items: [{ sku: 'im-a', qty: 1 }] });
      expect(result.updated_at).to.equal(OLD);
      expect(await updatedAt()).to.equal(OLD);
      expect(event().data).to.include.keys('added', 'ignored');
      expect(event().data.added).to.deep.equal([]);
    });

    it('should refuse the whole request, writing nothing, when a sku is unknown or disabled', async () => {
      const error = await failure(
        items.addItems(id, {
          items: [
            { sku: 'IM-C', qty: 1 },
            { sku: 'IM-NOPE', qty: 1 },
            { sku: 'IM-OFF', qty: 1 },
          ],
        }),
      );
      expect(error).to.be.instanceOf(InputException);
      expect((error as InputException).errors.map((e) => e.parameters)).to.deep.equal([
        { sku: 'IM-NOPE', fieldName: 'recommendation.items[1].sku' },
        { sku: 'IM-OFF', fieldName: 'recommendation.items[2].sku' },
      ]);
      expect((await resource.readItems(id)).map((i) => i.sku)).to.deep.equal(['IM-A']);
      expect(RecordEvents.seen).to.deep.equal([]);
    });

    it("should answer 404 under another store's scope and add nothing", async () => {
      expect(
        await failure(inStore(alpha, () => items.addItems(id, { items: [{ sku: 'IM-B', qty: 1 }] }))),
      ).to.be.instanceOf(NoSuchEntityException);
      expect(await resource.readItems(id)).to.have.length(1);
    });
  });

  describe('updateItems', () => {
    it('should change the fields given (null: the default), report the changed and the absent', async () => {
      await resource.insertItems([
        itemRow(id, 'im-c', { autoship_interval: '30', fulfillment_type: 'LC', doctor_id: 4 }),
      ]);
      const request = {
        items: [
          { sku: 'IM-C', qty: 5, autoship_interval: null, fulfillment_type: null, doctor_id: null },
          { sku: 'IM-B', qty: 1 },
        ],
      } as unknown as Parameters<RecommendationItemManagement['updateItems']>[1];
      const result = await items.updateItems(id, request);
      const c = result.items.find((i) => i.sku === 'IM-C')!;
      expect(c).to.include({ qty: 5, autoship_interval: 'once', fulfillment_type: 'automatic', doctor_id: null });
      expect(result.items.find((i) => i.sku === 'IM-A')).to.include({ qty: 2, note: 'first' });
      const { name, data } = event();
      expect(name).to.equal('dispensary_recommendation_items_update_after');
      expect((data.updated as { sku: string }[]).map((i) => i.sku)).to.deep.equal(['IM-C']);
      expect(data.ignored).to.deep.equal([{ sku: 'IM-B', qty: 1 }]);
      expect((await resource.readItems(id)).find((i) => i.sku === 'IM-C')).to.deep.equal(c);
      expect(await updatedAt())
        .to.equal(result.updated_at)
        .and.not.equal(OLD);
    });

    it('should leave updated_at alone and report nothing updated when the values are the ones stored', async () => {
      const result = await items.updateItems(id, { items: [{ sku: 'im-a', qty: 2, note: 'first' }] } as Parameters<
        RecommendationItemManagement['updateItems']
      >[1]);
      expect(result.updated_at).to.equal(OLD);
      expect(event().data.updated).to.deep.equal([]);
    });
  });

  describe('deleteItems', () => {
    it('should delete the items named (in any case), report the removed and the ids that named none', async () => {
      const b = itemRow(id, 'im-b');
      await resource.insertItems([b]);
      const [a] = await resource.readItems(id);
      const stranger = '00000000-0000-4000-8000-000000000000';
      const result = await items.deleteItems(id, [` ${a!.item_id.toUpperCase()} `, stranger, 'nonsense']);
      expect(result.items.map((i) => i.item_id)).to.deep.equal([b.item_id]);
      const { name, data } = event();
      expect(name).to.equal('dispensary_recommendation_items_delete_after');
      expect(data.removed).to.deep.equal([JSON.parse(JSON.stringify(a))]);
      expect(data.ignored).to.deep.equal([stranger, 'nonsense']);
      expect(await updatedAt()).to.not.equal(OLD);
    });

    it('should change nothing when no id names an item of this recommendation', async () => {
      const other = await newRecommendation(t, resource, main);
      const foreign = itemRow(other, 'im-a');
      await resource.insertItems([foreign]);
      const result = await items.deleteItems(id, [foreign.item_id]);
      expect(result.items).to.have.length(1);
      expect(result.updated_at).to.equal(OLD);
      expect(event().data).to.deep.include({ removed: [], ignored: [foreign.item_id] });
      expect(await resource.readItems(other)).to.have.length(1);
    });
  });
});
