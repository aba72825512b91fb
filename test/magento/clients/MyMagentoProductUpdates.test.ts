/**
 * my-magento (PyPI `my-magento`, github TDKorn/my-magento, version 2.2.0, commit cae9ef2 of
 * 2024-06-23): the HTTP calls its documented product updates make, replayed byte for byte in
 * method, URL, query string, body and headers (the library cannot be installed here; none of its
 * code is in this repository). Each answer is asserted as the library reads it.
 *
 * Where each call comes from (all paths are in that commit):
 * * magento/clients.py `Client.authenticate`: POST /rest/V1/integration/admin/token, JSON
 *   {username, password}, headers Content-Type and User-Agent; reads `response.json()` as the token.
 * * `Client.validate`: GET /rest/V1/store/websites; needs status 200.
 * * `Client.request`/`headers`: every other call sends `Authorization: Bearer <token>` and
 *   User-Agent (python-requests adds Accept `*` and Accept-Encoding), a JSON body for PUT; any 401
 *   makes it log in again; `response.ok` and `response.json()` decide.
 * * magento/search.py `ProductSearch.by_sku` -> `SearchQuery.by_id`: GET /rest/V1/products/<sku>
 *   (the query '/rest/V1/products/?' with the '?' stripped); a dict of more than 3 keys is the item.
 * * magento/clients.py `Store.is_single_store` -> `Store.configs`: GET /rest/V1/store/storeConfigs/?
 *   (a search query with no criteria); one config means a single store.
 * * magento/models/product.py `Product.update_price`/`update_status`/`update_name` ->
 *   `update_attributes`: single store -> `_update_single_store`: `_update_attributes` on the
 *   default scope then on `all`, each a PUT /rest[/all]/V1/products/<sku> with
 *   {"product": {"sku": <sku>, <attribute>: <value>}, "save_options": true}, then `refresh(scope)`
 *   (GET of the same URL), and a final `refresh()` on the default scope. Several stores: one PUT on
 *   the client's scope, then `Store.filter_website_attrs` -> `all_product_attributes` ->
 *   `ProductAttributeSearch.get_all`: GET /rest/V1/products/attributes/?searchCriteria[filter_groups][0]
 *   [filters][0][field]=position&...[value]=0&...[condition_type]=gteq, and for each attribute whose
 *   `scope` is `website` a second PUT on `all`.
 * * `Product.update_stock`: PUT /rest/V1/products/<sku>/stockItems/<stock_item.item_id> with
 *   {"stock_item": {"qty": q, "is_in_stock": q > 0}, "save_options": true}, then `refresh()`.
 */
import { expect } from 'chai';
import { createAdmin, FAST_HASHING } from '../../modules/Integration/support.js';
import { TestApp } from '../../support/testApp.js';

/** my-magento's DEFAULT_USER_AGENT stands in for get_agent()'s scraped one. */
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36';
/** What python-requests adds to every request. */
const REQUESTS_HEADERS = { Accept: '*/*', 'Accept-Encoding': 'gzip, deflate' };
const SKU = 'MM-SKU-1';

describe('my-magento 2.2.0: documented product updates against the service', () => {
  let t: TestApp;
  let token: string;
  const calls: string[] = [];

  before(async () => {
    t = await TestApp.start({ passwordHashing: FAST_HASHING, adminLogin: { rateLimit: 0, failureDelayMs: 0 } });
    await createAdmin(t, 'mm_admin', 'mm-password-1');
    const seed = await t.integrationToken({ allStores: true });
    const res = await t
      .request()
      .post('/rest/V1/products')
      .set('Authorization', `Bearer ${seed}`)
      .send({ product: { sku: SKU, name: 'My Magento Product', price: 10, status: 1 } });
    expect(res.status).to.equal(200);
  });
  after(async () => t?.stop());

  /** Client.request(method, url, payload) */
  async function clientRequest(method: 'GET' | 'PUT', url: string, payload?: object) {
    calls.push(`${method} ${url}`);
    let req = (method === 'GET' ? t.request().get(url) : t.request().put(url))
      .set(REQUESTS_HEADERS)
      .set('Authorization', `Bearer ${token}`)
      .set('User-Agent', USER_AGENT);
    if (payload) req = req.set('Content-Type', 'application/json').send(JSON.stringify(payload));
    const res = await req;
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).to.equal(200); // response.ok, no re-login
    return res;
  }

  /** Product.refresh(scope) / SearchQuery.by_id: the item read back. */
  async function refresh(scope?: string): Promise<Record<string, unknown>> {
    const res = await clientRequest('GET', scope ? `/rest/${scope}/V1/products/${SKU}` : `/rest/V1/products/${SKU}`);
    const data = res.body as Record<string, unknown>;
    expect(Object.keys(data).length).to.be.greaterThan(3);
    return data;
  }

  /** Product._update_attributes(attribute_data, scope) */
  async function updateAttributesOn(
    attributeData: Record<string, unknown>,
    scope?: string,
  ): Promise<Record<string, unknown>> {
    const url = scope ? `/rest/${scope}/V1/products/${SKU}` : `/rest/V1/products/${SKU}`;
    await clientRequest('PUT', url, { product: { sku: SKU, ...attributeData }, save_options: true });
    const product = await refresh(scope);
    for (const [key, value] of Object.entries(attributeData)) expect(product[key], key).to.equal(value);
    return product;
  }

  /** Product.update_attributes(attribute_data) */
  async function updateAttributes(attributeData: Record<string, unknown>): Promise<void> {
    const configs = (await clientRequest('GET', '/rest/V1/store/storeConfigs/?')).body as unknown[];
    expect(configs).to.be.an('array');
    if (configs.length === 1) {
      for (const scope of [undefined, 'all']) await updateAttributesOn(attributeData, scope);
      await refresh();
      return;
    }
    await updateAttributesOn(attributeData);
    const attributes = (
      await clientRequest(
        'GET',
        '/rest/V1/products/attributes/?searchCriteria[filter_groups][0][filters][0][field]=position' +
          '&searchCriteria[filter_groups][0][filters][0][value]=0' +
          '&searchCriteria[filter_groups][0][filters][0][condition_type]=gteq',
      )
    ).body as { items: { attribute_code: string; scope: string }[] };
    // validate_result: more than one item comes back as a list of ProductAttribute
    expect(attributes.items.length).to.be.greaterThan(1);
    for (const attribute of attributes.items) expect(['global', 'website', 'store']).to.include(attribute.scope);
    const websiteCodes = attributes.items.filter((a) => a.scope === 'website').map((a) => a.attribute_code);
    const websiteAttrs = Object.fromEntries(
      Object.entries(attributeData).filter(([key]) => websiteCodes.includes(key)),
    );
    if (Object.keys(websiteAttrs).length) await updateAttributesOn(websiteAttrs, 'all');
  }

  it('Client(login=True): authenticate then validate the token', async () => {
    const res = await t
      .request()
      .post('/rest/V1/integration/admin/token')
      .set(REQUESTS_HEADERS)
      .set('Content-Type', 'application/json')
      .set('User-Agent', USER_AGENT)
      .send(JSON.stringify({ username: 'mm_admin', password: 'mm-password-1' }));
    expect(res.status).to.equal(200);
    expect(res.body).to.be.a('string');
    token = res.body as string;
    await clientRequest('GET', '/rest/V1/store/websites');
  });

  it('api.products.by_sku(sku)', async () => {
    const product = await refresh();
    expect(product.sku).to.equal(SKU);
  });

  describe('with a single store view', () => {
    it('Product.update_price(12.5)', async () => {
      await updateAttributes({ price: 12.5 });
    });

    it('Product.update_status(2)', async () => {
      await updateAttributes({ status: 2 });
    });

    it("Product.update_name('Renamed')", async () => {
      await updateAttributes({ name: 'Renamed' });
    });

    it('Product.update_stock(5)', async () => {
      const product = await refresh();
      const stockItem = (product.extension_attributes as { stock_item: { item_id: number } }).stock_item;
      await clientRequest('PUT', `/rest/V1/products/${SKU}/stockItems/${stockItem.item_id}`, {
        stock_item: { qty: 5, is_in_stock: true },
        save_options: true,
      });
      const after = await refresh();
      expect(
        (after.extension_attributes as { stock_item: { qty: number; is_in_stock: boolean } }).stock_item,
      ).to.include({ qty: 5, is_in_stock: true });
    });
  });

  describe('with several store views (the attribute scopes are read)', () => {
    before(async () => t.createStore('second_view'));

    it('Product.update_price(15)', async () => {
      await updateAttributes({ price: 15 });
    });

    it('Product.update_status(1)', async () => {
      await updateAttributes({ status: 1 });
    });

    it("Product.update_name('Renamed again')", async () => {
      await updateAttributes({ name: 'Renamed again' });
    });

    it('made the calls my-magento makes, in order', () => {
      expect(calls).to.include('GET /rest/V1/store/storeConfigs/?');
      expect(calls).to.include(`PUT /rest/all/V1/products/${SKU}`);
      expect(calls.some((c) => c.startsWith('GET /rest/V1/products/attributes/?searchCriteria'))).to.equal(true);
    });
  });
});
