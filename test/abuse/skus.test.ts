/**
 * Skus that look alike: Unicode normalisation (NFC), invisible and reordering characters, length
 * in code points, and the one case-folding rule (NFC, toLowerCase, NFC) kept by each database's
 * unique index; and the migration that re-keys rows stored under the old rule.
 */
import { expect } from 'chai';
import { Application } from '../../app/bootstrap/Application.js';
import { migrateLatest } from '../../app/framework/db/MigrationSource.js';
import { skuKey } from '../../modules/Dispensary/Catalog/Api/skuKey.js';
import { INVALID, ok, skus, type Dispensary } from '../modules/Recommendation/support.js';
import { createTestDatabase } from '../support/database.js';
import { startAbuseApp } from './support.js';

const COMPOSED = 'CAF\u00c9-1';
const DECOMPOSED = 'CAFE\u0301-1';

describe('Abuse: skus that look alike', () => {
  let d: Dispensary;
  before(async () => {
    ({ d } = await startAbuseApp());
  });
  after(async () => d?.stop());

  const save = (sku: string, name = 'n') => d.call('post', 'all', '/products').send({ product: { sku, name } });

  it('should treat composed and decomposed "CAFÉ" as one product, stored in NFC', async () => {
    const first = await save(DECOMPOSED, 'first');
    expect(first.status).to.equal(200);
    expect(first.body.sku).to.equal(COMPOSED);
    const second = await save(COMPOSED, 'second');
    expect(second.body.id).to.equal(first.body.id);
    expect(
      (await d.call('get', 'all', `/products/${encodeURIComponent(DECOMPOSED.toLowerCase())}`)).body.name,
    ).to.equal('second');
    expect(await d.t.app.knex('catalog_product').where('sku', 'like', 'CAF%')).to.have.length(1);
  });

  it('should refuse zero-width, bidi-override and other format characters', async () => {
    for (const sku of [
      'AB\u200bC',
      'AB\u200dC',
      '\u202eCBA',
      'A\u2066B\u2069',
      'SOFT\u00adHYPHEN',
      'B\ufeffOM',
      'LINE\u2028SEP',
    ]) {
      const res = await save(sku);
      expect(res.status, JSON.stringify(sku)).to.equal(400);
      expect(res.body).to.deep.include({ message: INVALID });
      expect(res.body.parameters.fieldName).to.equal('product.sku');
    }
  });

  it('should count the length in code points: 64 emoji fit, 65 do not', async () => {
    const fits = '\u{1F48A}'.repeat(64); // 128 UTF-16 units
    const res = await save(fits);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.sku).to.equal(fits);
    expect((await save('\u{1F48A}'.repeat(65))).status).to.equal(400);
  });

  it('should merge the Kelvin sign with K (its canonical form) and keep the long s apart from s', async () => {
    const kelvin = await save('\u212a-TEMP');
    expect(kelvin.body.sku).to.equal('K-TEMP');
    expect((await save('k-temp')).body.id).to.equal(kelvin.body.id);
    const longS = await save('\u017fOAP');
    const s = await save('SOAP');
    expect(longS.status).to.equal(200);
    expect(s.body.id).to.not.equal(longS.body.id);
  });

  it('should match recommendation items by the same rule', async () => {
    await d.products('VIT\u00c9-9');
    const r = await d.recommendation({ recommendation: { items: [{ sku: 'VIT\u00c9-9', qty: 1 }] } });
    const added = ok(
      await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'vite\u0301-9', qty: 2 }] } }),
    );
    expect(skus(added)).to.deep.equal(['VIT\u00c9-9']);
    const bad = await d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'X\u200bY', qty: 1 }] } });
    expect(bad.status).to.equal(400);
    expect(bad.body.parameters.fieldName).to.equal('recommendation.items[0].sku');
  });

  it('should fold without locale: a dotted capital I keeps its dot, Turkish rules never apply', () => {
    expect(skuKey('\u0130D')).to.equal('i\u0307d');
    expect(skuKey('ID')).to.equal('id');
  });
});

describe('Migration: re-keying skus stored under the old rule', function () {
  this.timeout(60_000);

  it('should put old rows in NFC with the new key, keeping the older of two that now collide', async () => {
    const database = await createTestDatabase();
    const app = await Application.create({ databaseUrl: database.url });
    try {
      const source = app.migrationSource();
      const before = source.list().filter((m) => m.name < '20261123110100');
      for (const migration of before) await app.knex.migrate.up({ migrationSource: source, name: migration.name });
      const now = '2026-01-01 00:00:00';
      const old = (sku: string) => ({
        sku,
        sku_key: sku.trim().toLowerCase(),
        name: sku,
        price: 1,
        status: 1,
        is_in_stock: true,
        created_at: now,
        updated_at: now,
      });
      await app.knex('catalog_product').insert([old(COMPOSED), old(DECOMPOSED), old('PLAIN-1')]);
      await migrateLatest(app.knex, source);
      const rows = (await app.knex('catalog_product').select('sku', 'sku_key').orderBy('entity_id')) as {
        sku: string;
        sku_key: string;
      }[];
      expect(rows).to.deep.equal([
        { sku: COMPOSED, sku_key: skuKey(COMPOSED) },
        // The newer spelling collides: it keeps its old key and spelling, nothing is lost.
        { sku: DECOMPOSED, sku_key: DECOMPOSED.toLowerCase() },
        { sku: 'PLAIN-1', sku_key: 'plain-1' },
      ]);
    } finally {
      await app.close();
      await database.release();
    }
  });
});
