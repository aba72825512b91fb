/**
 * Hostile bodies, keys, path segments and query strings: each answers a Magento 400 before any
 * validation or database work, the same on SQLite, MariaDB and PostgreSQL, and logs no stack.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { describeValue } from '../../app/framework/exception/InputException.js';
import type { Dispensary } from '../modules/Recommendation/support.js';
import { INVALID, UNSUPPORTED } from '../modules/Recommendation/support.js';
import { errorsLogged, listen, startAbuseApp, type LogLine } from './support.js';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('Abuse: hostile input', () => {
  let d: Dispensary;
  let logs: LogLine[];
  before(async () => {
    ({ d, logs } = await startAbuseApp());
    await d.products('SAFE-1');
  });
  after(async () => d?.stop());
  beforeEach(() => logs.splice(0));

  const raw = (method: 'post' | 'put', url: string, json: string, token: string | null = d.token) => {
    const req = request(d.http)[method](url).set('Content-Type', 'application/json');
    return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(json);
  };

  describe('when JSON nests deeply', () => {
    it('should answer 400 "Decoding error." for arrays nested 5000 deep in a validated field, logging nothing', async () => {
      const r = await d.recommendation({ recommendation: { items: ['SAFE-1'] } });
      const res = await raw(
        'post',
        `/rest/default/V1/dispensary/recommendation/${r.recommendation_id}/item`,
        `{"recommendation":{"items":[{"sku":${nested(5000)},"qty":1}]}}`,
      );
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Decoding error.' });
      expect(errorsLogged(logs)).to.deep.equal([]);
    });

    it('should answer 400 on the anonymous admin login route too', async () => {
      const res = await raw(
        'post',
        '/rest/V1/integration/admin/token',
        `{"username":${nested(5000)},"password":"x"}`,
        null,
      );
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Decoding error.' });
      expect(errorsLogged(logs)).to.deep.equal([]);
    });

    it('should take 64 levels and refuse the 65th', async () => {
      // The body object is level 1, "product" level 2, "name" holds the arrays.
      const at = await raw('post', '/rest/all/V1/products', `{"product":{"sku":"DEEP-1","name":${nested(62)}}}`);
      expect(at.status).to.equal(400);
      // A list where a string belongs: Magento's type message.
      expect(at.body.message).to.equal(
        'Error occurred during "name" processing. Invalid type for value: "array". Expected Type: "string".',
      );
      const over = await raw('post', '/rest/all/V1/products', `{"product":{"sku":"DEEP-1","name":${nested(63)}}}`);
      expect(over.status).to.equal(400);
      expect(over.body).to.deep.equal({ message: 'Decoding error.' });
    });

    it('should describe any rejected value without recursion, within 200 characters', () => {
      let deep: unknown = 1;
      for (let i = 0; i < 100_000; i++) deep = [deep];
      const text = describeValue(deep);
      expect(text).to.have.length(203);
      expect(text.startsWith('[[[[')).to.equal(true);
      expect(describeValue({ a: [1, 'x', null], b: { c: true } })).to.equal('{"a":[1,"x",null],"b":{"c":true}}');
    });
  });

  describe('when strings carry NUL, lone surrogates or control characters', () => {
    const unsafe = ['a\u0000b', 'a\ud800b', 'a\udc00', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\u0085b'];

    it('should answer 400 for each in a product sku and name, and store nothing', async () => {
      for (const value of unsafe) {
        for (const field of ['sku', 'name']) {
          const product = { sku: `BAD-${randomUUID().slice(0, 8)}`, name: 'ok', [field]: value };
          const res = await raw('post', '/rest/all/V1/products', JSON.stringify({ product }));
          expect(res.status, `${field} ${JSON.stringify(value)}`).to.equal(400);
          expect(res.body.message).to.equal(INVALID);
          expect(res.body.parameters.fieldName).to.equal(`product.${field}`);
        }
      }
      const stored = await d.t.app.knex('catalog_product').where('sku', 'like', 'BAD-%');
      expect(stored).to.deep.equal([]);
      expect(errorsLogged(logs)).to.deep.equal([]);
    });

    it('should answer 400 for NUL in the admin username on the anonymous login route', async () => {
      const res = await raw(
        'post',
        '/rest/V1/integration/admin/token',
        JSON.stringify({ username: 'ad\u0000min', password: 'x' }),
        null,
      );
      expect(res.status).to.equal(400);
      expect(res.body.parameters).to.deep.equal({ fieldName: 'username', value: 'ad\\u0000min' });
    });

    it('should answer 400 for a body key with a control character', async () => {
      const res = await raw(
        'post',
        '/rest/all/V1/products',
        JSON.stringify({ product: { sku: 'K-1', name: 'n', 'x\u0000y': 1 } }),
      );
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: UNSUPPORTED, parameters: { fieldName: 'product.x\\u0000y' } });
    });

    it('should answer 400 for NUL and control characters in a path segment', async () => {
      for (const segment of ['%00abc', 'ab%01', '%ED%A0%80']) {
        const res = await d.call('get', 'default', `/dispensary/recommendation/${segment}`);
        // %ED%A0%80 (an encoded surrogate) is not UTF-8: it matches no route at all.
        expect(res.status, segment).to.be.oneOf([400, 404]);
        if (segment !== '%ED%A0%80') expect(res.body.parameters.fieldName, segment).to.equal('recommendationId');
      }
      const product = await d.call('get', 'all', '/products/SAFE%001');
      expect(product.status).to.equal(400);
      expect(errorsLogged(logs)).to.deep.equal([]);
    });

    it('should answer 400 for NUL in a query value and a query key', async () => {
      const r = await d.recommendation({ recommendation: { items: ['SAFE-1'] } });
      const value = await d.call(
        'delete',
        'default',
        `/dispensary/recommendation/${r.recommendation_id}/item?id[]=a%00b`,
      );
      expect(value.status).to.equal(400);
      expect(value.body.parameters).to.deep.equal({ fieldName: 'id[0]', value: 'a\\u0000b' });
      const key = await d.call('get', 'default', `/dispensary/recommendation/${r.recommendation_id}?fie%00lds=x`);
      expect(key.status).to.equal(400);
      expect((await d.read(r.recommendation_id)).items).to.have.length(1);
    });

    it('should answer 400 "Decoding error." for bytes that are not UTF-8 (an encoded surrogate, 0xFF), sync and async, and store nothing', async () => {
      const bodies = [
        Buffer.concat([
          Buffer.from('{"product":{"sku":"RAW-1","name":"a'),
          Buffer.from([0xed, 0xa0, 0x80]),
          Buffer.from('"}}'),
        ]),
        Buffer.concat([
          Buffer.from('{"product":{"sku":"RAW-2","name":"a'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"}}'),
        ]),
      ];
      // fetch sends the bytes as they are (supertest would serialise a Buffer as JSON).
      const server = await listen(d);
      try {
        for (const url of ['/rest/all/V1/products', '/rest/all/async/V1/products']) {
          for (const body of bodies) {
            const res = await fetch(`http://127.0.0.1:${server.port}${url}`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${d.token}`, 'Content-Type': 'application/json' },
              body,
            });
            expect(res.status, `${url} ${body.toString('hex')}`).to.equal(400);
            expect(await res.json()).to.deep.equal({ message: 'Decoding error.' });
          }
        }
      } finally {
        await server.close();
      }
      expect(await d.t.app.knex('catalog_product').where('sku', 'like', 'RAW-%')).to.deep.equal([]);
      expect(await d.t.app.knex('magento_bulk').count({ n: '*' }).first()).to.satisfy(
        (r: { n: number | string }) => Number(r.n) === 0,
      );
      expect(errorsLogged(logs)).to.deep.equal([]);
    });

    it('should keep tab, line feed and carriage return in free text (a note)', async () => {
      const note = 'Morning:\ttake one\r\nEvening:\ttake two\n';
      const r = await d.recommendation({ recommendation: { note, items: [{ sku: 'SAFE-1', qty: 1, note }] } });
      expect(r.note).to.equal(note);
      expect(r.items[0]!.note).to.equal(note);
    });

    it('should refuse a tab in a sku, an identifier', async () => {
      const res = await raw('post', '/rest/all/V1/products', JSON.stringify({ product: { sku: 'A\tB', name: 'n' } }));
      expect(res.status).to.equal(400);
      expect(res.body.parameters.fieldName).to.equal('product.sku');
    });
  });

  describe('when the query string has more parameters than the parser takes', () => {
    it('should answer 400 for 1001 id[] on Delete Items and remove nothing', async () => {
      const r = await d.recommendation({ recommendation: { items: ['SAFE-1'] } });
      // Short ids: 1001 UUIDs would pass node's 16 KiB header limit (431) before reaching the parser.
      const ids = [...Array.from({ length: 1000 }, (_, i) => `x${i}`), r.items[0]!.item_id];
      const res = await d.remove(r.recommendation_id, ids);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'The query string has %count parameters; at most %max are accepted.',
        parameters: { count: 1001, max: 1000 },
      });
      expect((await d.read(r.recommendation_id)).items).to.have.length(1);
    });

    it('should still take 1000 id[] (the last one removing the item)', async () => {
      const r = await d.recommendation({ recommendation: { items: ['SAFE-1'] } });
      const ids = [...Array.from({ length: 999 }, (_, i) => `x${i}`), r.items[0]!.item_id];
      const res = await d.remove(r.recommendation_id, ids);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.items).to.deep.equal([]);
    });
  });
});
