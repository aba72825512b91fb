/**
 * A backslash in a `like`/`nlike` value: never a 500 on any database (PostgreSQL refuses a
 * pattern that ends in its escape character, 22025), and one meaning everywhere, MySQL's (Magento's
 * database): `\` escapes the next character (`\%`, `\_`, `\\` are literal), and a `\` that ends
 * the pattern, escaping nothing, is a literal backslash. Walks every search route of the route
 * registry (every GET route with a searchCriteria parameter) and each of its text fields.
 */
import { expect } from 'chai';
import request from 'supertest';
import { searchCriteriaFields } from '../../app/framework/api/search/searchCriteriaParameter.js';
import { closeTrailingEscape } from '../../app/framework/api/search/applySearchCriteria.js';
import type { Dispensary } from '../modules/Recommendation/support.js';
import { errorsLogged, startAbuseApp, type LogLine } from './support.js';

const VALUES = ['\\', '%\\', 'a\\', '\\\\', '\\\\\\', '%\\%', '\\%', '_\\_', '\\a\\'];

const filter = (field: string, value: string, condition: string, group = 0) => ({
  [`searchCriteria[filter_groups][${group}][filters][0][field]`]: field,
  [`searchCriteria[filter_groups][${group}][filters][0][value]`]: value,
  [`searchCriteria[filter_groups][${group}][filters][0][condition_type]`]: condition,
});

describe('Abuse: a backslash in a like value', () => {
  let d: Dispensary;
  let logs: LogLine[];
  before(async () => {
    ({ d, logs } = await startAbuseApp());
    for (const [sku, name] of [
      ['BS-1', 'Trail\\'],
      ['BS-2', 'Back\\slash'],
      ['BS-3', 'Backslash'],
      ['BS-4', 'Plain'],
    ]) {
      const res = await d.call('post', 'all', '/products').send({ product: { sku, name, price: 1 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });
  after(async () => d?.stop());

  it('should close a trailing escape as MySQL reads it', () => {
    expect(['\\', 'a\\', '\\\\', '\\\\\\', 'a'].map(closeTrailingEscape)).to.deep.equal([
      '\\\\',
      'a\\\\',
      '\\\\',
      '\\\\\\\\',
      'a',
    ]);
  });

  it('should answer 200 on every search route, for every text field, like and nlike, logging no error', async () => {
    const routes = [...d.t.app.routes.entries()].filter(([route]) => route.method === 'GET');
    let walked = 0;
    for (const [route, spec] of routes) {
      const fields = spec.params.map((p) => searchCriteriaFields(p.schema)).find((f) => f !== undefined);
      if (!fields) continue;
      walked++;
      const url = `/rest/all${route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000')}`;
      for (const [field, type] of Object.entries(fields)) {
        if (type !== 'text') continue;
        for (const condition of ['like', 'nlike']) {
          for (const value of VALUES) {
            const res = await request(d.http)
              .get(url)
              .query(filter(field, value, condition))
              .set('Authorization', `Bearer ${d.token}`);
            expect(
              res.status,
              `${route.url} ${field} ${condition} ${JSON.stringify(value)}: ${JSON.stringify(res.body)}`,
            ).to.equal(200);
          }
        }
      }
    }
    expect(walked).to.be.greaterThanOrEqual(3);
    expect(errorsLogged(logs)).to.deep.equal([]);
  });

  it('should read the backslash as MySQL does on every database', async () => {
    const names = async (value: string, condition = 'like') => {
      const res = await request(d.http)
        .get('/rest/all/V1/products')
        .query({ ...filter('name', value, condition), ...filter('sku', 'BS-%', 'like', 1) })
        .set('Authorization', `Bearer ${d.token}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body.items as { name: string }[]).map((p) => p.name).sort();
    };
    expect(await names('%\\')).to.deep.equal(['Trail\\']);
    expect(await names('%\\\\')).to.deep.equal(['Trail\\']);
    expect(await names('%\\', 'nlike')).to.deep.equal(['Back\\slash', 'Backslash', 'Plain']);
    expect(await names('back\\\\slash')).to.deep.equal(['Back\\slash']);
    // An escaped ordinary character is that character.
    expect(await names('back\\slash')).to.deep.equal(['Backslash']);
    expect(await names('%\\%')).to.deep.equal([]);
    expect(await names('\\')).to.deep.equal([]);
  });
});
