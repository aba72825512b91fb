import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';

const DENIED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Dispensary_Store::stores' },
};

const CONFIG_FIELDS = [
  'id',
  'code',
  'website_id',
  'locale',
  'base_currency_code',
  'default_display_currency_code',
  'timezone',
  'weight_unit',
  'base_url',
  'base_link_url',
  'base_static_url',
  'base_media_url',
  'secure_base_url',
  'secure_base_link_url',
  'secure_base_static_url',
  'secure_base_media_url',
];

describe('Store: websites, store groups and store configs', () => {
  let t: TestApp;
  let allStores: string;
  let alphaToken: string;
  const get = (path: string, token: string) => t.request().get(path).set('Authorization', `Bearer ${token}`);

  before(async () => {
    t = await TestApp.start();
    await t.createStore('alpha');
    await t.createStore('beta');
    allStores = await t.integrationToken({ allStores: true });
    alphaToken = await t.integrationToken({ store: 'alpha' });
  });
  after(async () => t?.stop());

  describe('GET /V1/store/websites', () => {
    it("should answer Magento's website fields, the admin website 0 first", async () => {
      const res = await get('/rest/all/V1/store/websites', allStores);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([
        { id: 0, code: 'admin', name: 'Admin', default_group_id: 0 },
        { id: 1, code: 'base', name: 'Main Website', default_group_id: 1 },
      ]);
    });

    it('should answer a store-bound token too, under its store, and ignore ?searchCriteria=all as client libraries send it', async () => {
      const res = await get('/rest/alpha/V1/store/websites?searchCriteria=all', alphaToken);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([{ id: 1, code: 'base', name: 'Main Website', default_group_id: 1 }]);
    });

    it('should answer 401 without a token and for a store-bound token outside its store', async () => {
      expect((await t.request().get('/rest/V1/store/websites')).body).to.deep.equal(DENIED);
      const res = await get('/rest/beta/V1/store/websites', alphaToken);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({
        message:
          'The token is bound to another store and cannot be used with the store "%storeCode". Use the URL of its own store.',
        parameters: { storeCode: 'beta' },
      });
    });
  });

  describe('GET /V1/store/storeGroups', () => {
    it("should answer Magento's group fields, the default store being the default store view", async () => {
      const res = await get('/rest/all/V1/store/storeGroups', allStores);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([
        { id: 0, website_id: 0, root_category_id: 0, default_store_id: 0, name: 'Default', code: 'default' },
        {
          id: 1,
          website_id: 1,
          root_category_id: 2,
          default_store_id: 1,
          name: 'Main Website Store',
          code: 'main_website_store',
        },
      ]);
      expect(Object.keys(res.body[1])).to.deep.equal([
        'id',
        'website_id',
        'root_category_id',
        'default_store_id',
        'name',
        'code',
      ]);
    });
  });

  describe('GET /V1/store/storeViews', () => {
    it('should answer is_active as 1 or 0, as Magento does', async () => {
      const res = await get('/rest/all/V1/store/storeViews', allStores);
      expect(res.body.map((s: { is_active: unknown }) => s.is_active)).to.deep.equal([1, 1, 1, 1]);
    });
  });

  describe('GET /V1/store/storeConfigs', () => {
    it("should answer every visible store with Magento's fields and types, built-in defaults first", async () => {
      const res = await get('/rest/all/V1/store/storeConfigs', allStores);
      expect(res.status).to.equal(200);
      expect(res.body.map((c: { code: string }) => c.code)).to.deep.equal(['default', 'alpha', 'beta']);
      const first = res.body[0];
      expect(Object.keys(first)).to.have.members(CONFIG_FIELDS);
      expect(first).to.deep.equal({
        id: 1,
        code: 'default',
        website_id: 1,
        locale: 'en_US',
        base_currency_code: 'USD',
        default_display_currency_code: 'USD',
        timezone: 'UTC',
        weight_unit: 'lbs',
        base_url: 'http://localhost:3000/',
        base_link_url: 'http://localhost:3000/',
        base_static_url: 'http://localhost:3000/static/',
        base_media_url: 'http://localhost:3000/media/',
        secure_base_url: 'http://localhost:3000/',
        secure_base_link_url: 'http://localhost:3000/',
        secure_base_static_url: 'http://localhost:3000/static/',
        secure_base_media_url: 'http://localhost:3000/media/',
      });
    });

    it('should follow the token binding: a store-bound token sees only its store', async () => {
      const res = await get('/rest/alpha/V1/store/storeConfigs', alphaToken);
      expect(res.status).to.equal(200);
      expect(res.body.map((c: { code: string }) => c.code)).to.deep.equal(['alpha']);
      const named = await get('/rest/alpha/V1/store/storeConfigs?storeCodes[]=beta&storeCodes[]=alpha', alphaToken);
      expect(named.body.map((c: { code: string }) => c.code)).to.deep.equal(['alpha']);
    });

    it('should answer only the stores named by storeCodes[], leaving unknown codes out', async () => {
      const res = await get('/rest/all/V1/store/storeConfigs?storeCodes[]=beta&storeCodes[]=nowhere', allStores);
      expect(res.body.map((c: { code: string }) => c.code)).to.deep.equal(['beta']);
    });

    it('should show values set with store:config:set, a store value winning over the default scope', async () => {
      for (const args of [
        ['general/locale/code', 'de_DE'],
        ['currency/options/base', 'EUR'],
        ['web/unsecure/base_url', 'https://shop.example.com/'],
        ['--store', 'alpha', 'general/locale/timezone', 'Europe/Berlin'],
        ['--store', 'alpha', 'general/locale/weight_unit', 'kgs'],
        ['--store', 'alpha', 'currency/options/default', 'CHF'],
        ['--store', 'beta', 'web/secure/base_url', 'https://secure.example.com/'],
        ['--store', 'beta', 'general/locale/code', 'fr_FR'],
      ]) {
        const result = await t.cli('store:config:set', ...args);
        expect(result.code, `${args.join(' ')}: ${result.err.join('\n')}`).to.equal(0);
      }
      const res = await get('/rest/all/V1/store/storeConfigs', allStores);
      const [base, alpha, beta] = res.body;
      expect(base).to.include({
        locale: 'de_DE',
        base_currency_code: 'EUR',
        default_display_currency_code: 'USD',
        timezone: 'UTC',
        base_url: 'https://shop.example.com/',
        base_media_url: 'https://shop.example.com/media/',
      });
      expect(alpha).to.include({
        locale: 'de_DE',
        timezone: 'Europe/Berlin',
        weight_unit: 'kgs',
        default_display_currency_code: 'CHF',
      });
      expect(beta).to.include({
        locale: 'fr_FR',
        secure_base_url: 'https://secure.example.com/',
        secure_base_static_url: 'https://secure.example.com/static/',
        base_url: 'https://shop.example.com/',
      });
      // Setting it again replaces the value.
      expect((await t.cli('store:config:set', '--store', 'beta', 'general/locale/code', 'it_IT')).code).to.equal(0);
      const again = await get('/rest/beta/V1/store/storeConfigs', allStores);
      expect(again.body.find((c: { code: string }) => c.code === 'beta').locale).to.equal('it_IT');
    });

    it('should refuse unknown paths, bad values and unknown stores, changing nothing', async () => {
      const before = await get('/rest/all/V1/store/storeConfigs', allStores);
      for (const args of [
        ['no/such/path', 'x'],
        ['general/locale/code', 'german'],
        ['currency/options/base', 'euro'],
        ['general/locale/timezone', 'Mars/Olympus'],
        ['general/locale/weight_unit', 'stone'],
        ['web/unsecure/base_url', 'ftp://example.com/'],
        ['web/unsecure/base_url', 'https://example.com'],
        ['--store', 'nowhere', 'general/locale/code', 'en_GB'],
      ]) {
        const result = await t.cli('store:config:set', ...args);
        expect(result.code, args.join(' ')).to.equal(1);
        expect(result.err.join('\n')).to.match(/Error: /);
      }
      const after = await get('/rest/all/V1/store/storeConfigs', allStores);
      expect(after.body).to.deep.equal(before.body);
    });
  });

  describe('GET /rest/<scope>/schema', () => {
    it('should describe the store routes and both security schemes', async () => {
      const res = await t.request().get('/rest/default/schema?services=all');
      for (const path of [
        '/V1/store/websites',
        '/V1/store/storeGroups',
        '/V1/store/storeConfigs',
        '/V1/store/storeViews',
      ]) {
        expect(res.body.paths[path].get['x-resources'], path).to.deep.equal(['Dispensary_Store::stores']);
      }
      const storeCodes = res.body.paths['/V1/store/storeConfigs'].get.parameters.find(
        (p: { name: string }) => p.name === 'store_codes',
      );
      expect(storeCodes).to.include({ in: 'query' });
      expect(res.body.securityDefinitions.Bearer).to.include({ type: 'apiKey', in: 'header', name: 'Authorization' });
      expect(res.body.securityDefinitions.OAuth1['x-oauth1'].signatureMethods).to.deep.equal([
        'HMAC-SHA256',
        'HMAC-SHA1',
      ]);
      expect(res.body.security).to.deep.equal([{ Bearer: [] }, { OAuth1: [] }]);
      expect(res.body.paths['/V1/integration/admin/token'].post.security).to.deep.equal([]);
    });
  });
});
