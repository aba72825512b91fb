import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import fc from 'fast-check';
import request from 'supertest';
import { Dispensary, type Recommendation } from './support.js';

/**
 * Bad input never causes a 5xx: random and mutated bodies, headers and paths thrown at the item
 * routes. Every answer is a 200 with a sound recommendation, or a 4xx with Magento's error body;
 * afterwards every stored recommendation still satisfies the invariants.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SKUS = ['FZ-1', 'FZ-2', 'FZ-3', 'Fz-Mixed', 'FZ-OUT'];
const INTERVAL = /^(once|[1-9][0-9]{0,3}[dwm])$/;
const FULFILLMENT = ['automatic', 'LC', '1L'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Attempt {
  method: 'post' | 'put' | 'delete' | 'get' | 'patch';
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function assertErrorBody(body: unknown, context: string): void {
  expect(body, context).to.be.an('object');
  const b = body as Record<string, unknown>;
  expect(
    Object.keys(b).every((k) => ['message', 'parameters', 'errors'].includes(k)),
    context,
  ).to.equal(true);
  expect(b.message, context).to.be.a('string').and.not.equal('');
  const checkParameters = (parameters: unknown) => {
    // Named parameters are an object; positional ones (Magento's "%1") a list, as Magento sends them.
    expect(parameters !== null && typeof parameters === 'object', context).to.equal(true);
    for (const value of Object.values(parameters as object))
      expect(typeof value, context).to.be.oneOf(['string', 'number']);
  };
  if (b.parameters !== undefined) checkParameters(b.parameters);
  if (b.errors !== undefined) {
    expect(b.errors, context).to.be.an('array').with.length.above(1);
    for (const e of b.errors as { message: unknown; parameters: unknown }[]) {
      expect(e.message, context).to.be.a('string');
      checkParameters(e.parameters);
    }
  }
}

function assertSoundItem(item: Record<string, unknown>, context: string): void {
  expect(item.item_id, context).to.match(UUID);
  expect(item.sku, context).to.be.a('string');
  expect(Number.isInteger(item.qty) && (item.qty as number) >= 1 && (item.qty as number) <= 10000, context).to.equal(
    true,
  );
  expect(item.autoship_interval, context).to.match(INTERVAL);
  expect(FULFILLMENT, context).to.include(item.fulfillment_type);
  expect(item.note === null || (typeof item.note === 'string' && item.note.length <= 2000), context).to.equal(true);
  for (const id of [item.doctor_id, item.location_id])
    expect(id === null || (Number.isInteger(id) && (id as number) > 0), context).to.equal(true);
  expect(item.availability, context).to.be.oneOf(['in stock', 'out of stock']);
}

function assertSoundRecommendation(r: Recommendation, context: string): void {
  expect(r.recommendation_id, context).to.match(UUID);
  expect(r.status, context).to.equal('pending');
  const keys = r.items.map((i) => i.sku.trim().toLowerCase());
  expect(new Set(keys).size, `${context}: one item per sku`).to.equal(keys.length);
  for (const item of r.items) assertSoundItem(item as unknown as Record<string, unknown>, context);
}

describe('Recommendation: bad input never causes a 5xx (property-based)', () => {
  let d: Dispensary;
  let server: Server;
  let base: string;
  let recs: Recommendation[];
  let foreign: Recommendation;
  const itemIds: string[] = [];

  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('alpha');
    for (const sku of SKUS) await d.product(sku, { inStock: sku !== 'FZ-OUT' });
    await d.product('FZ-OFF', { status: 2 });
    recs = [
      await d.recommendation({ recommendation: { items: [{ sku: 'FZ-1', qty: 2, autoship_interval: '2w' }] } }),
      await d.recommendation({ recommendation: { items: ['FZ-2', 'FZ-3'] } }),
    ];
    foreign = await d.recommendation({ recommendation: { items: ['FZ-1'] } }, 'alpha');
    for (const r of [...recs, foreign]) itemIds.push(...r.items.map((i) => i.item_id));
    server = d.http.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await d?.stop();
  });

  // ---- arbitraries -------------------------------------------------------------------------
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });
  const weird = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant([]),
    fc.constant({}),
    anyText,
  );
  /** Mostly valid values, sometimes a bad one: requests must succeed often enough to change state. */
  const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
    fc.oneof({ weight: 40, arbitrary: valid }, { weight: 1, arbitrary: invalid }) as fc.Arbitrary<T | U>;
  const skuArb = mostly(
    fc.constantFrom(...SKUS, 'FZ-OFF', 'NOPE', ...SKUS.map((s) => ` ${s.toLowerCase()} `)),
    fc.oneof(fc.constantFrom('', '   ', 'x'.repeat(65), 'FZ-\u00001', 'FZ-\ud800'), weird),
  );
  const qtyArb = mostly(
    fc.oneof(fc.integer({ min: 1, max: 10000 }), fc.integer({ min: 1, max: 10000 }).map(String)),
    fc.oneof(
      fc.integer({ min: -3, max: 10003 }),
      fc.constantFrom('1.0', ' 3', '1e3', '+2', '0x10', '00012', '9'.repeat(30), 1e21, -0, 10001, 0),
      weird,
    ),
  );
  const intervalArb = mostly(
    fc.oneof(
      fc.constantFrom('once', 'ONCE', '1d', '30D', '9999d', '2w', '12M', null),
      fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.constantFrom('d', 'w', 'm', 'D')).map(([n, u]) => `${n}${u}`),
    ),
    fc.oneof(
      fc.constantFrom('0d', '01d', '10000d', 'd', ' 3d ', '3y', ''),
      fc.tuple(fc.integer({ min: 0, max: 12000 }), fc.constantFrom('d', 'w', 'm', 'y', '')).map(([n, u]) => `${n}${u}`),
      weird,
    ),
  );
  const fulfillmentArb = mostly(
    fc.constantFrom('automatic', 'Automatic', 'lc', 'LC', '1l', '1L', null),
    fc.oneof(fc.constantFrom('manual', ''), weird),
  );
  const idArb = mostly(
    fc.oneof(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 99 }).map(String), fc.constant(null)),
    fc.oneof(fc.constantFrom(0, -1, 2 ** 31, '1.5', 'abc', ''), weird),
  );
  const noteArb = mostly(
    fc.oneof(
      anyText.map((t) =>
        t
          .replace(/[\ud800-\udfff]/g, '')
          .split(String.fromCharCode(0))
          .join(''),
      ),
      fc.constant(null),
      fc.constant('n'.repeat(2000)),
    ),
    fc.oneof(anyText, fc.constantFrom('n'.repeat(2001), 5)),
  );
  const itemArb = fc
    .tuple(
      fc.record({ sku: skuArb, qty: qtyArb }),
      fc.record(
        {
          autoship_interval: intervalArb,
          note: noteArb,
          fulfillment_type: fulfillmentArb,
          doctor_id: idArb,
          location_id: idArb,
          item_id: fc.oneof(fc.uuid(), weird),
          availability: weird,
        },
        { requiredKeys: [] },
      ),
      fc.oneof(
        { weight: 20, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            { fullfillment_type: 'LC' },
            { fullfillment_type: 'nope' },
            { extra_field: 1 },
            { Sku: 'x' },
          ),
        },
      ),
      fc.oneof({ weight: 25, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('sku', 'qty') }),
    )
    .map(([required, optional, odd, drop]) => {
      const item: Record<string, unknown> = { ...required, ...optional, ...odd };
      if (drop) delete item[drop];
      return item;
    });
  const itemOrJunk = fc.oneof(
    { weight: 30, arbitrary: itemArb },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
  const recommendationArb = fc.oneof(
    { weight: 6, arbitrary: fc.record({ items: fc.array(itemOrJunk, { maxLength: 6 }) }) },
    { weight: 2, arbitrary: fc.record({ item: itemOrJunk }) },
    {
      weight: 1,
      arbitrary: fc.record({ item: itemArb, items: fc.array(itemArb, { maxLength: 2 }) }, { requiredKeys: [] }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
  const bodyValueArb = fc.oneof(
    { weight: 8, arbitrary: fc.record({ recommendation: recommendationArb }) },
    {
      weight: 1,
      arbitrary: fc.record(
        { recommendation: recommendationArb, recommendation_id: weird, ids: weird, id: weird },
        { requiredKeys: ['recommendation'] },
      ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
  /** The JSON text, sometimes mutated: cut short, a character replaced or inserted, or no body. */
  const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
    { weight: 12, arbitrary: bodyValueArb.map((v) => JSON.stringify(v)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          bodyValueArb.map((v) => JSON.stringify(v) ?? ''),
          fc.nat(),
          fc.constantFrom('cut', 'replace', 'insert'),
          fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
        )
        .map(([text, at, how, s]) => {
          const i = text.length ? at % text.length : 0;
          if (how === 'cut') return text.slice(0, i);
          if (how === 'replace') return text.slice(0, i) + s + text.slice(i + 1);
          return text.slice(0, i) + s + text.slice(i);
        }),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constant(undefined),
        fc.constant(''),
        fc.constant('null'),
        fc.constant('[]'),
        fc.constant('"x"'),
        anyText,
      ),
    },
  );
  const segmentArb = fc.oneof(
    anyText.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x'))),
    fc.constantFrom('%E0%A4%A', '%', '..', '%2F', 'item'),
  );
  const scopeArb = fc.oneof(
    { weight: 24, arbitrary: fc.constantFrom('default', 'default', 'all', 'alpha', '') },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('ALL', 'nope', '9x', 'a'.repeat(40)), segmentArb) },
  );
  const targetArb = fc.oneof(
    { weight: 18, arbitrary: fc.constantFrom(0, 0, 1, 1, 2) },
    { weight: 2, arbitrary: fc.oneof(fc.uuid(), segmentArb, fc.constantFrom('UPPER')) },
  );
  const pathArb = fc
    .tuple(
      scopeArb,
      targetArb,
      fc.oneof({ weight: 30, arbitrary: fc.constant(4) }, { weight: 3, arbitrary: fc.constantFrom(0, 1, 2, 3) }),
      segmentArb,
    )
    .map(([scope, target, shape, extra]) => {
      const id =
        typeof target === 'number'
          ? [recs[0]!, recs[1]!, foreign][target]!.recommendation_id
          : target === 'UPPER'
            ? recs[0]!.recommendation_id.toUpperCase()
            : target;
      const prefix = `/rest/${scope ? `${scope}/` : ''}V1/dispensary/recommendation/${id}`;
      if (shape === 0) return `${prefix}/item/${extra}`;
      if (shape === 1) return prefix;
      if (shape === 2) return `${prefix}/${extra}`;
      if (shape === 3) return `/rest/${scope}/V2/dispensary/recommendation/${id}/item`;
      return `${prefix}/item`;
    });
  const queryArb = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.oneof(
            fc.nat().map((i) => itemIds[i % itemIds.length] ?? 'none'),
            fc.uuid(),
            anyText,
          ),
          { maxLength: 4 },
        )
        .map((ids) => ids.map((i) => `id[]=${encodeURIComponent(i.replace(/[\ud800-\udfff]/g, 'x'))}`).join('&')),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'id=',
        'id[a][b]=c',
        'id[999]=x',
        'fields=items[sku,qty]',
        'fields=%5B',
        'ids=1&id=2',
        'id[]=&id[]=',
      ),
    },
  );
  const authArb = fc.oneof(
    { weight: 20, arbitrary: fc.constant('VALID') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer abcdefghijklmnopqrstuvwxyz012345',
        'Basic Zm9vOmJhcg==',
        'bearer VALID',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')) },
  );
  const contentTypeArb = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/vnd.api+json',
        'multipart/form-data; boundary=x',
      ),
    },
  );
  const encodingArb = fc.oneof(
    { weight: 40, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown') },
  );
  const attemptArb: fc.Arbitrary<Attempt> = fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom('post', 'put', 'delete') },
        { weight: 1, arbitrary: fc.constantFrom('get', 'patch') },
      ),
      path: pathArb,
      query: queryArb,
      auth: authArb,
      contentType: contentTypeArb,
      encoding: encodingArb,
      body: bodyArb,
    })
    .map(({ method, path, query, auth, contentType, encoding, body }) => {
      const headers: Record<string, string> = { 'Content-Type': contentType };
      if (auth !== '') headers.Authorization = auth === 'VALID' ? `Bearer ${d.token}` : auth.replace('VALID', d.token);
      if (encoding) headers['Content-Encoding'] = encoding;
      return {
        method: method as Attempt['method'],
        path,
        query: method === 'delete' || method === 'get' ? query : '',
        headers,
        body,
      };
    });

  it(`should answer ${RUNS} random and mutated requests with a 200 or a Magento 4xx, and keep the invariants`, async function () {
    this.timeout(300_000);
    const statuses = new Map<number, number>();
    const reasons = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(attemptArb, async (attempt) => {
        const url = attempt.query ? `${attempt.path}?${attempt.query}` : attempt.path;
        let req = request(base)[attempt.method](url);
        for (const [name, value] of Object.entries(attempt.headers)) req = req.set(name, value);
        const res = attempt.body === undefined ? await req : await req.send(attempt.body);
        const context = `${attempt.method.toUpperCase()} ${url} -> ${res.status} ${res.text.slice(0, 300)}`;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.headers['content-type'], context).to.match(/^application\/json/);
        if (res.status === 200 && /(^|&)fields=/.test(attempt.query)) {
          expect(res.body, context).to.be.an('object'); // a partial response: only the fields asked for
        } else if (res.status === 200) {
          assertSoundRecommendation(res.body as Recommendation, context);
          for (const item of (res.body as Recommendation).items)
            if (!itemIds.includes(item.item_id)) itemIds.push(item.item_id);
        } else {
          const reason = `${res.status} ${res.body.message} ${res.body.parameters?.fieldName ?? ''}`.replace(
            /\[\d+\]/g,
            '[]',
          );
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
          expect(res.status, context).to.be.within(400, 499);
          assertErrorBody(res.body, context);
        }
      }),
      { numRuns: RUNS },
    );
    // The properties must have exercised both outcomes.
    expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).to.be.above(RUNS / 12);
    expect(statuses.get(400) ?? 0, JSON.stringify([...statuses])).to.be.above(RUNS / 10);
    if (process.env.FUZZ_VERBOSE)
      console.log(
        [...statuses].sort(),
        [...reasons].sort((a, b) => b[1] - a[1]),
      );

    // Every stored recommendation still satisfies its invariants, read back through the API and from the table.
    for (const r of [...recs, foreign])
      assertSoundRecommendation(await d.read(r.recommendation_id), r.recommendation_id);
    const rows = (await d.t.app.knex('dispensary_recommendation_item').select('*')) as Record<string, unknown>[];
    const seen = new Set<string>();
    for (const row of rows) {
      const key = `${row.recommendation_id as string}|${row.sku_key as string}`;
      expect(seen.has(key), key).to.equal(false);
      seen.add(key);
      expect(row.sku_key).to.equal((row.sku as string).trim().toLowerCase());
      expect(Number.isInteger(Number(row.qty)) && Number(row.qty) >= 1 && Number(row.qty) <= 10000).to.equal(true);
      expect(row.autoship_interval).to.match(INTERVAL);
      expect(FULFILLMENT).to.include(row.fulfillment_type);
    }
    expect(rows.length).to.be.above(3);
  });
});
