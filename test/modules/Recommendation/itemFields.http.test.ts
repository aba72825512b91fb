import { expect } from 'chai';
import { Dispensary, INVALID, inputErrors, ok, REQUIRED, UNSUPPORTED, type Recommendation } from './support.js';

const TYPE_42 =
  'Error occurred during "items" processing. Error occurred during "sku" processing. Invalid type for value: "42". Expected Type: "string".';

/** The item field rules of the contract, through Add Items (and Update Items where they differ). */
describe('Recommendation: item fields', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
    await d.products('F-1', 'F-2', 'F-3');
  });
  after(async () => d?.stop());

  /** Adds one item `F-1` with the given fields to a fresh recommendation. */
  async function addOne(fields: Record<string, unknown>) {
    const r = await d.recommendation();
    return d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'F-1', qty: 1, ...fields }] } });
  }
  async function addedItem(fields: Record<string, unknown>) {
    const r = ok(await addOne(fields));
    expect(r.items).to.have.length(1);
    return r.items[0]!;
  }
  async function rejected(fields: Record<string, unknown>, field: string) {
    const res = await addOne(fields);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.parameters?.fieldName ?? res.body.errors?.[0]?.parameters?.fieldName).to.equal(
      `recommendation.items[0].${field}`,
    );
    return res;
  }

  describe('qty', () => {
    for (const [input, stored] of [
      [1, 1],
      ['3', 3],
      [10000, 10000],
      ['10000', 10000],
      ['007', 7],
      [2.0, 2],
    ] as const) {
      it(`should accept ${JSON.stringify(input)} and store the integer ${stored}`, async () => {
        expect((await addedItem({ qty: input })).qty).to.equal(stored);
      });
    }
    for (const input of [
      0,
      -1,
      10001,
      1.5,
      '1.5',
      '',
      ' 3',
      '3 ',
      '1e3',
      '+3',
      '-2',
      'three',
      true,
      null,
      [],
      {},
      '10001',
      1e20,
    ]) {
      it(`should answer 400 for ${JSON.stringify(input)}`, async () => {
        const res = await rejected({ qty: input }, 'qty');
        expect(res.body.message).to.equal(INVALID);
      });
    }
    it('should answer 400 when qty is missing', async () => {
      const r = await d.recommendation();
      const res = await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'F-1' }] } });
      expect(res.body).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'recommendation.items[0].qty' } });
    });
  });

  describe('sku', () => {
    it('should answer 400 when it is missing, empty after trimming, too long or not a string', async () => {
      const r = await d.recommendation();
      const errors = inputErrors(
        await d.add(r.recommendation_id, {
          recommendation: {
            items: [
              { qty: 1 },
              { sku: '   ', qty: 1 },
              { sku: 'x'.repeat(65), qty: 1 },
              { sku: 42, qty: 1 },
              { sku: null, qty: 1 },
            ],
          },
        }),
      );
      expect(errors[0]).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'recommendation.items[0].sku' } });
      expect(errors.slice(1).map((e) => [e.message, e.parameters.fieldName])).to.deep.equal(
        // 42 is of the wrong JSON type: Magento's type message.
        [1, 2, 3, 4].map((i) => [i === 3 ? TYPE_42 : INVALID, `recommendation.items[${i}].sku`]),
      );
    });

    it('should accept 64 characters after trimming', async () => {
      const sku = `L${'x'.repeat(63)}`;
      await d.product(sku);
      expect((await addedItem({ sku: `  ${sku}  ` })).sku).to.equal(sku);
    });

    it('should answer 400 for a NUL character, which no database would store as sent', async () => {
      await rejected({ sku: 'F-\u00001' }, 'sku');
    });
  });

  describe('autoship_interval', () => {
    for (const [input, stored] of [
      ['once', 'once'],
      ['ONCE', 'once'],
      ['1d', '1d'],
      ['30D', '30d'],
      ['9999d', '9999d'],
      ['2W', '2w'],
      ['12m', '12m'],
      [null, 'once'],
    ] as const) {
      it(`should accept ${JSON.stringify(input)} and return ${stored}`, async () => {
        expect((await addedItem({ autoship_interval: input })).autoship_interval).to.equal(stored);
      });
    }
    it('should default to once when absent', async () => {
      expect((await addedItem({})).autoship_interval).to.equal('once');
    });
    for (const input of ['0d', '01d', '10000d', 'd', '5', '5y', '5 d', 'twice', '', 30, true, {}]) {
      it(`should answer 400 for ${JSON.stringify(input)}`, async () => {
        await rejected({ autoship_interval: input }, 'autoship_interval');
      });
    }
  });

  describe('note', () => {
    it('should accept up to 2000 characters, an empty string and null', async () => {
      expect((await addedItem({ note: 'é'.repeat(2000) })).note).to.equal('é'.repeat(2000));
      expect((await addedItem({ note: '' })).note).to.equal('');
      expect((await addedItem({ note: null })).note).to.equal(null);
      expect((await addedItem({ note: 'emoji 💊 ok' })).note).to.equal('emoji 💊 ok');
    });
    for (const input of ['n'.repeat(2001), 5, {}, ['a']]) {
      it(`should answer 400 for ${JSON.stringify(input).slice(0, 20)}`, async () => {
        await rejected({ note: input }, 'note');
      });
    }
  });

  describe('fulfillment_type', () => {
    for (const [input, stored] of [
      ['automatic', 'automatic'],
      ['AUTOMATIC', 'automatic'],
      ['LC', 'LC'],
      ['lc', 'LC'],
      ['1L', '1L'],
      ['1l', '1L'],
      [null, 'automatic'],
    ] as const) {
      it(`should accept ${JSON.stringify(input)} and return ${stored}`, async () => {
        expect((await addedItem({ fulfillment_type: input })).fulfillment_type).to.equal(stored);
      });
    }
    it('should default to automatic when absent', async () => {
      expect((await addedItem({})).fulfillment_type).to.equal('automatic');
    });
    for (const input of ['manual', '', 'L C', 1, true]) {
      it(`should answer 400 for ${JSON.stringify(input)}`, async () => {
        await rejected({ fulfillment_type: input }, 'fulfillment_type');
      });
    }

    it('should accept the misspelling fullfillment_type as the same field and answer the right spelling', async () => {
      const item = await addedItem({ fullfillment_type: 'lc' });
      expect(item.fulfillment_type).to.equal('LC');
      expect(item).not.to.have.property('fullfillment_type');
    });

    it('should accept both spellings with the same value', async () => {
      expect((await addedItem({ fulfillment_type: '1L', fullfillment_type: '1l' })).fulfillment_type).to.equal('1L');
    });

    it('should answer 400 for both spellings with different values', async () => {
      const res = await rejected({ fulfillment_type: 'LC', fullfillment_type: 'automatic' }, 'fullfillment_type');
      expect(res.body).to.deep.equal({
        message: '"%fieldName" and "%otherFieldName" have different values. Send one of them.',
        parameters: {
          fieldName: 'recommendation.items[0].fullfillment_type',
          otherFieldName: 'recommendation.items[0].fulfillment_type',
        },
      });
      await rejected({ fulfillment_type: null, fullfillment_type: 'LC' }, 'fullfillment_type');
      await rejected({ fulfillment_type: 'LC', fullfillment_type: null }, 'fullfillment_type');
    });

    it('should answer 400 for an invalid misspelled field', async () => {
      await rejected({ fullfillment_type: 'nope' }, 'fullfillment_type');
    });
  });

  describe('doctor_id and location_id', () => {
    for (const field of ['doctor_id', 'location_id']) {
      it(`should accept a positive integer, a numeric string and null for ${field}`, async () => {
        expect((await addedItem({ [field]: 12 }))[field as 'doctor_id']).to.equal(12);
        expect((await addedItem({ [field]: '34' }))[field as 'doctor_id']).to.equal(34);
        expect((await addedItem({ [field]: null }))[field as 'doctor_id']).to.equal(null);
        expect((await addedItem({}))[field as 'doctor_id']).to.equal(null);
      });
      for (const input of [0, -3, 1.5, '1.5', 'abc', '', 2147483648, true, {}]) {
        it(`should answer 400 for ${field} ${JSON.stringify(input)}`, async () => {
          await rejected({ [field]: input }, field);
        });
      }
    }
  });

  describe('output-only and unknown fields', () => {
    it('should accept and ignore item_id and availability', async () => {
      const item = await addedItem({ item_id: 'client-made-id', availability: 'out of stock' });
      expect(item.item_id).not.to.equal('client-made-id');
      expect(item.availability).to.equal('in stock');
    });

    it('should accept an item sent back exactly as it was read', async () => {
      const r = await d.recommendation({
        recommendation: { items: [{ sku: 'F-2', qty: 2, note: 'x', doctor_id: 1 }] },
      });
      const res = await d.update(r.recommendation_id, { recommendation: { items: [{ ...r.items[0], qty: 5 }] } });
      expect(ok(res).items[0]).to.deep.equal({ ...r.items[0], qty: 5 });
    });

    it('should answer 400 naming an unknown field', async () => {
      const res = await addOne({ colour: 'red' });
      expect(res.body).to.deep.equal({
        message: UNSUPPORTED,
        parameters: { fieldName: 'recommendation.items[0].colour' },
      });
    });

    // Was "should answer 400 for camelCase spellings of item fields": issue 30 makes the web API read
    // keys inside data objects in either spelling, as Magento's ServiceInputProcessor does.
    it('should read camelCase spellings of item fields as their snake_case fields, as Magento does', async () => {
      const res = await addOne({ autoshipInterval: '2d' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.items[0].autoship_interval).to.equal('2d');
    });

    it('should answer 400 naming an unknown field of the recommendation object', async () => {
      const r = await d.recommendation();
      const res = await d.add(r.recommendation_id, { recommendation: { items: [], note: 'no' } });
      expect(res.body).to.deep.equal({ message: UNSUPPORTED, parameters: { fieldName: 'recommendation.note' } });
    });
  });

  describe('the shape of the request', () => {
    let r: Recommendation;
    beforeEach(async () => {
      r = await d.recommendation();
    });

    it('should accept a single item as {"item": Item}', async () => {
      const res = ok(await d.add(r.recommendation_id, { recommendation: { item: { sku: 'F-3', qty: '2' } } }));
      expect(res.items.map((i) => [i.sku, i.qty])).to.deep.equal([['F-3', 2]]);
      const upd = ok(await d.update(r.recommendation_id, { recommendation: { item: { sku: 'f-3', qty: 4 } } }));
      expect(upd.items[0]!.qty).to.equal(4);
    });

    it('should name the field of the single item form in its errors', async () => {
      const res = await d.add(r.recommendation_id, { recommendation: { item: { sku: 'F-3', qty: 0 } } });
      expect(res.body).to.deep.equal({
        message: INVALID,
        parameters: { fieldName: 'recommendation.item.qty', value: '0' },
      });
    });

    it('should answer 400 for both item and items', async () => {
      const res = await d.add(r.recommendation_id, {
        recommendation: { item: { sku: 'F-3', qty: 1 }, items: [{ sku: 'F-2', qty: 1 }] },
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Send either "%fieldName" or "%otherFieldName", not both.',
        parameters: { fieldName: 'recommendation.item', otherFieldName: 'recommendation.items' },
      });
      expect((await d.read(r.recommendation_id)).items).to.deep.equal([]);
    });

    it('should answer 400 when neither item nor items is sent, or recommendation is missing', async () => {
      expect((await d.add(r.recommendation_id, { recommendation: {} })).body).to.deep.equal({
        message: REQUIRED,
        parameters: { fieldName: 'recommendation.items' },
      });
      expect((await d.update(r.recommendation_id, {})).body).to.deep.equal({
        message: REQUIRED,
        parameters: { fieldName: 'recommendation' },
      });
    });

    it('should answer 400 when items is not a list or an item not an object', async () => {
      for (const items of ['F-1', null, { sku: 'F-1', qty: 1 }]) {
        const res = await d.add(r.recommendation_id, { recommendation: { items } });
        expect(res.status).to.equal(400);
        expect(res.body.parameters.fieldName).to.equal('recommendation.items');
      }
      const res = await d.add(r.recommendation_id, { recommendation: { items: ['F-1'] } });
      expect(res.body.parameters).to.deep.equal({ fieldName: 'recommendation.items[0]', value: 'F-1' });
    });

    it('should list every invalid field of every item in one 400 and change nothing', async () => {
      const res = await d.add(r.recommendation_id, {
        recommendation: {
          items: [
            { sku: 'F-1', qty: 1 },
            { sku: 'F-2', qty: 0, autoship_interval: 'weekly' },
            { qty: 'x', note: 5, extra: true },
          ],
        },
      });
      expect(res.body.message).to.equal('One or more input exceptions have occurred.');
      expect(res.body.errors.map((e: { parameters: { fieldName: string } }) => e.parameters.fieldName)).to.have.members(
        [
          'recommendation.items[1].qty',
          'recommendation.items[1].autoship_interval',
          'recommendation.items[2].sku',
          'recommendation.items[2].qty',
          'recommendation.items[2].note',
          'recommendation.items[2].extra',
        ],
      );
      expect((await d.read(r.recommendation_id)).items).to.deep.equal([]);
    });

    it('should answer 400 with a clear message for more than 1000 items, and accept exactly 1000', async () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => ({ sku: `F-${(i % 3) + 1}`, qty: 1 }));
      const res = await d.update(r.recommendation_id, { recommendation: { items: many(1001) } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'A request may carry at most %max items; "%fieldName" has %count.',
        parameters: { max: 1000, fieldName: 'recommendation.items', count: 1001 },
      });
      expect((await d.add(r.recommendation_id, { recommendation: { items: many(1001) } })).status).to.equal(400);
      expect(ok(await d.add(r.recommendation_id, { recommendation: { items: many(1000) } })).items).to.have.length(3);
    });

    it('should answer 413 for a body over 1 MiB', async () => {
      const res = await d.add(r.recommendation_id, {
        recommendation: { items: [{ sku: 'F-1', qty: 1, note: 'n'.repeat(1024 * 1024) }] },
      });
      expect(res.status).to.equal(413);
      expect(res.body.message).to.be.a('string').and.to.contain('limit');
      expect((await d.read(r.recommendation_id)).items).to.deep.equal([]);
    });

    it('should answer 400 Decoding error. for a body that is not JSON', async () => {
      const res = await d
        .call('post', 'default', `/dispensary/recommendation/${r.recommendation_id}/item`)
        .set('Content-Type', 'application/json')
        .send('{"recommendation": {"items": [');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Decoding error.' });
    });

    it('should answer 415 naming the media type of a body that is not JSON', async () => {
      const res = await d
        .call('put', 'default', `/dispensary/recommendation/${r.recommendation_id}/item`)
        .set('Content-Type', 'text/plain')
        .send('recommendation');
      expect(res.status).to.equal(415);
      expect(res.body).to.deep.equal({
        message: 'Server cannot understand Content-Type HTTP header media type %1',
        parameters: ['text/plain'],
      });
    });
  });
});
