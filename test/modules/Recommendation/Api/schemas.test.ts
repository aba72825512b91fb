import { expect } from 'chai';
import { DEFER } from '../../../../app/framework/index.js';
import { fastPathOf } from '../../../../app/framework/contract/FastPath.js';
import {
  itemsRequestSchema,
  MAX_ITEMS_PER_REQUEST,
} from '../../../../modules/Dispensary/Recommendation/Api/schemas.js';

// The options InputMapper validates with.
const joiSchema = itemsRequestSchema.prefs({ abortEarly: false, convert: true, errors: { wrap: { label: false } } });
const fast = fastPathOf(itemsRequestSchema)!;

/** Values each item field is tried with: valid, canonicalised and invalid ones. */
const FIELD_VALUES: Record<string, unknown[]> = {
  sku: [
    'SKU-1',
    '  padded  ',
    'Cafe\u0301',
    'K\u212A',
    '',
    ' ',
    'a\u200bb',
    'tab\there',
    'x'.repeat(64),
    'x'.repeat(65),
    '\u{1F600}'.repeat(64),
    '\u{1F600}'.repeat(65),
    7,
    null,
    true,
    {},
  ],
  qty: [
    1,
    2,
    10000,
    10001,
    0,
    -1,
    -0,
    1.5,
    '1',
    '0',
    '007',
    '10000',
    '10001',
    ' 1',
    '1e2',
    '',
    Number.POSITIVE_INFINITY,
    2 ** 60,
    true,
    null,
    [],
    {},
  ],
  autoship_interval: [
    'once',
    'ONCE',
    ' 30D ',
    '30d',
    '9999m',
    '10000w',
    '0d',
    '01d',
    '',
    '  ',
    'weekly',
    'I\u0307d',
    null,
    3,
    false,
  ],
  note: ['', 'Take with food', 'x'.repeat(2000), 'x'.repeat(2001), 'nul\u0000', 'lone \uD800', '  ', null, 5, {}],
  fulfillment_type: ['automatic', 'LC', 'lc', ' 1l ', 'AUTOMATIC', '', ' ', 'other', null, 1, []],
  fullfillment_type: ['LC', null, 'bad'],
  doctor_id: [1, 2147483647, 2147483648, 0, '12', '012', 'x', 1.2, null, true],
  location_id: [5, '5', -5, null, ''],
  item_id: ['any'],
  availability: ['in stock'],
  unknown_field: [1],
  ['__proto__']: [1],
};

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomItem(next: () => number): unknown {
  const roll = next();
  if (roll < 0.02) return 'SKU-1';
  if (roll < 0.03) return null;
  const item: Record<string, unknown> = {};
  const fields = Object.keys(FIELD_VALUES).sort(() => next() - 0.5);
  for (const field of fields) {
    const common = field === 'sku' || field === 'qty';
    if (next() > (common ? 0.95 : 0.3)) continue;
    const values = FIELD_VALUES[field]!;
    // Mostly valid values, so that many whole requests take the fast path.
    const value = next() < 0.7 ? values[0] : values[Math.floor(next() * values.length)];
    if (field === '__proto__') Object.defineProperty(item, field, { value, enumerable: true });
    else item[field] = value;
  }
  return item;
}

/** Asserts the fast path answers what the joi schema answers, or defers; answers whether it took the input. */
function compare(input: unknown): boolean {
  const snapshot = JSON.stringify(input);
  const answer = fast(input);
  expect(JSON.stringify(input), 'the fast path leaves its input as it was').to.equal(snapshot);
  if (answer === DEFER) return false;
  const result = joiSchema.validate(input);
  expect(result.error, `joi refuses what the fast path took: ${snapshot}`).to.equal(undefined);
  expect(answer, snapshot).to.deep.equal(result.value);
  expect(Object.keys((answer as { items: object[] }).items[0] ?? {}), snapshot).to.deep.equal(
    Object.keys((result.value as { items: object[] }).items[0] ?? {}),
  );
  return true;
}

describe('Recommendation: the items request fast path', () => {
  it('is attached to the contract schema, and only to it', () => {
    expect(fast).to.be.a('function');
    expect(fastPathOf(itemsRequestSchema.optional())).to.equal(undefined);
    expect(fastPathOf(itemsRequestSchema.keys({ extension_attributes: itemsRequestSchema }))).to.equal(undefined);
  });

  it('takes the benchmark request and answers what joi answers', () => {
    const body = {
      items: [
        { sku: 'BENCH-01000', qty: 2, autoship_interval: '30d' },
        { sku: 'BENCH-01001', qty: '1', fulfillment_type: 'lc', note: 'Take with food' },
      ],
    };
    expect(compare(body)).to.equal(true);
    expect(fast(body)).to.deep.equal({
      items: [
        { sku: 'BENCH-01000', qty: 2, autoship_interval: '30d' },
        { sku: 'BENCH-01001', qty: 1, fulfillment_type: 'LC', note: 'Take with food' },
      ],
    });
  });

  it('answers what joi answers for every single field value, or leaves it to joi', () => {
    let taken = 0;
    for (const [field, values] of Object.entries(FIELD_VALUES)) {
      for (const value of values) {
        const item: Record<string, unknown> = { sku: 'SKU-1', qty: 1 };
        if (field === '__proto__') Object.defineProperty(item, field, { value, enumerable: true });
        else item[field] = value;
        if (compare({ items: [item] })) taken++;
      }
    }
    expect(taken).to.be.greaterThan(30);
  });

  it('answers what joi answers for 3,000 random requests, or leaves them to joi', () => {
    const next = random(28);
    let taken = 0;
    for (let n = 0; n < 3000; n++) {
      const items = Array.from({ length: Math.floor(next() * 4) }, () => randomItem(next));
      if (compare({ items })) taken++;
    }
    // Enough of them valid that the comparison means something.
    expect(taken).to.be.greaterThan(300);
  });

  it('leaves the other shapes of a request to joi', () => {
    const item = { sku: 'SKU-1', qty: 1 };
    for (const input of [
      undefined,
      null,
      'x',
      JSON.stringify({ items: [item] }),
      [],
      { item },
      { items: [item], item },
      { items: [item], other: 1 },
      { items: JSON.stringify([item]) },
      { items: {} },
      { items: Array.from({ length: MAX_ITEMS_PER_REQUEST + 1 }, () => item) },
      Object.assign(Object.create(null) as object, { items: [item] }),
    ])
      expect(fast(input), JSON.stringify(input)).to.equal(DEFER);
    expect(compare({ items: [] })).to.equal(true);
    expect(
      compare({ items: Array.from({ length: MAX_ITEMS_PER_REQUEST }, (_, i) => ({ sku: `S${i}`, qty: 1 })) }),
    ).to.equal(true);
  });
});
