import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Dispensary, ok, REQUIRED, skus, type Recommendation } from './support.js';

describe('Recommendation: Delete Items', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
    await d.products('D-1', 'D-2', 'D-3');
  });
  after(async () => d?.stop());

  let r: Recommendation;
  beforeEach(async () => {
    r = await d.recommendation({ recommendation: { items: ['D-1', 'D-2', 'D-3'] } });
  });
  const route = () => `/dispensary/recommendation/${r.recommendation_id}/item`;

  it('should remove the items named by id[] and answer the whole recommendation', async () => {
    const res = ok(await d.remove(r.recommendation_id, [r.items[0]!.item_id, r.items[2]!.item_id]));
    expect(skus(res)).to.deep.equal(['D-2']);
    expect(await d.read(r.recommendation_id)).to.deep.equal(res);
  });

  it('should accept a single ?id= and an id in upper case', async () => {
    const res = ok(await d.call('delete', 'default', `${route()}?id=${r.items[1]!.item_id.toUpperCase()}`));
    expect(skus(res)).to.deep.equal(['D-1', 'D-3']);
  });

  it('should ignore ids that are not items of this recommendation', async () => {
    const other = await d.recommendation({ recommendation: { items: ['D-1'] } });
    const old = await d.ageRecommendation(r.recommendation_id);
    const res = ok(await d.remove(r.recommendation_id, [other.items[0]!.item_id, randomUUID(), 'not-an-id']));
    expect(res.items).to.deep.equal(r.items);
    expect(res.updated_at).to.equal(old);
    expect((await d.read(other.recommendation_id)).items).to.have.length(1);
  });

  it('should accept more than 20 ids (which the query parser turns into an object)', async () => {
    const ids = [...Array.from({ length: 25 }, () => randomUUID()), r.items[0]!.item_id];
    expect(skus(ok(await d.remove(r.recommendation_id, ids)))).to.deep.equal(['D-2', 'D-3']);
  });

  it('should answer 400 without any id', async () => {
    const none = await d.call('delete', 'default', route());
    expect(none.status).to.equal(400);
    expect(none.body).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'id' } });
    const empty = await d.call('delete', 'default', `${route()}?id[]=`);
    expect(empty.status).to.equal(400);
    expect(empty.body).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'id' } });
  });

  it('should answer 400 for an id that is not a string and for more than 1000 ids', async () => {
    expect((await d.call('delete', 'default', `${route()}?id[a][b]=c`)).status).to.equal(400);
    const res = await d
      .call('delete', 'default', route())
      .send({ ids: Array.from({ length: 1001 }, () => randomUUID()) });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('A request may carry at most %max items; "%fieldName" has %count.');
  });

  it('should change updated_at when an item was removed', async () => {
    const old = await d.ageRecommendation(r.recommendation_id);
    const res = ok(await d.remove(r.recommendation_id, [r.items[0]!.item_id]));
    expect(res.updated_at).not.to.equal(old);
  });

  it('should answer 404 for a recommendation that does not exist', async () => {
    expect((await d.remove(randomUUID(), [r.items[0]!.item_id])).status).to.equal(404);
    expect((await d.read(r.recommendation_id)).items).to.have.length(3);
  });
});
