import { expect } from 'chai';
import { TestApp } from '../../support/testApp.js';
import { stockItem } from '../../../modules/Dispensary/Catalog/Api/Data/StockItemInterface.js';

const NOT_AUTHORIZED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Dispensary_Catalog::products' },
};
/** Product writes are scope="global": a store-bound token is refused at authorization, before its body is read. */
const ONE_STORE_ONLY = {
  message:
    'The token is bound to one store, and this request changes data shared by all stores. Use a token for all stores.',
};

describe('Catalog: products through the REST API', () => {
  let t: TestApp;
  let allStores: string;
  let storeBound: string;

  before(async () => {
    t = await TestApp.start();
    allStores = await t.integrationToken({ allStores: true });
    storeBound = await t.integrationToken({ store: 'default' });
  });
  after(async () => t?.stop());

  /** scope '' is the default-store form /rest/V1/... */
  const prefix = (scope: string) => (scope === '' ? '/rest' : `/rest/${scope}`);
  const post = (token: string, body: unknown, scope = 'all') =>
    t
      .request()
      .post(`${prefix(scope)}/V1/products`)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const get = (token: string, sku: string, scope = '') =>
    t
      .request()
      .get(`${prefix(scope)}/V1/products/${encodeURIComponent(sku)}`)
      .set('Authorization', `Bearer ${token}`);

  describe('when a new sku is saved', () => {
    it('should create the product with the defaults and answer it with typed values', async () => {
      const res = await post(allStores, { product: { sku: ' VIT-D3 ', name: 'Vitamin D3', price: '12.5' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        id: res.body.id,
        sku: 'VIT-D3',
        name: 'Vitamin D3',
        price: 12.5,
        status: 1,
        created_at: res.body.created_at,
        updated_at: res.body.created_at,
        extension_attributes: { stock_item: stockItem(res.body.id, 0, true) },
      });
      expect(res.body.id).to.be.a('number');
      expect(res.body.created_at).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it('should keep a price of 0 when none is given, and store status and stock as given', async () => {
      const res = await post(allStores, {
        product: {
          sku: 'OMEGA-3',
          name: 'Omega 3',
          status: 2,
          extension_attributes: { stock_item: { is_in_stock: false } },
        },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ sku: 'OMEGA-3', price: 0, status: 2 });
      expect(res.body.extension_attributes).to.deep.equal({ stock_item: stockItem(res.body.id, 0, false) });
    });

    it('should accept and ignore the Magento fields this catalog does not keep', async () => {
      const res = await post(allStores, {
        product: { sku: 'ZINC', name: 'Zinc', type_id: 'simple', attribute_set_id: 4, custom_attributes: [], id: 999 },
      });
      expect(res.status).to.equal(200);
      expect(res.body.id).to.not.equal(999);
      expect(res.body).to.not.have.property('type_id');
    });
  });

  describe('when an existing sku is saved again in another case', () => {
    it('should update the same product, keep the fields not given and not create a second one', async () => {
      const first = await post(allStores, {
        product: {
          sku: 'Mag-200',
          name: 'Magnesium',
          price: 9.99,
          status: 2,
          extension_attributes: { stock_item: { is_in_stock: false } },
        },
      });
      expect(first.status).to.equal(200);
      const second = await post(allStores, { product: { sku: 'mag-200 ', name: 'Magnesium 200mg' } });
      expect(second.status).to.equal(200);
      expect(second.body).to.deep.equal({
        id: first.body.id,
        sku: 'mag-200',
        name: 'Magnesium 200mg',
        price: 9.99,
        status: 2,
        created_at: first.body.created_at,
        updated_at: second.body.updated_at,
        extension_attributes: { stock_item: stockItem(first.body.id, 0, false) },
      });
      const third = await post(allStores, {
        product: {
          sku: 'MAG-200',
          name: 'Magnesium 200mg',
          price: 11,
          status: 1,
          extension_attributes: { stock_item: { is_in_stock: 1 } },
        },
      });
      expect(third.body).to.include({ id: first.body.id, price: 11, status: 1 });
      expect(third.body.extension_attributes.stock_item.is_in_stock).to.equal(true);
    });

    it('should not fail when many saves of one new sku run at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          post(allStores, { product: { sku: i % 2 ? 'RACE-1' : 'race-1', name: `Race ${i}`, price: i } }),
        ),
      );
      expect(answers.map((r) => r.status)).to.deep.equal(answers.map(() => 200));
      expect(new Set(answers.map((r) => r.body.id)).size).to.equal(1);
    });
  });

  describe('when a product is read', () => {
    it('should find it case-insensitively after trimming, under any scope the token may use', async () => {
      await post(allStores, { product: { sku: 'Fish-Oil', name: 'Fish oil', price: 20 } });
      for (const [token, sku, scope] of [
        [allStores, 'fish-oil', 'all'],
        [allStores, ' FISH-OIL ', ''],
        [storeBound, 'FISH-oil', ''],
        [storeBound, 'fish-oil', 'default'],
      ] as const) {
        const res = await get(token, sku, scope);
        expect(res.status, `${sku} under ${scope || 'default'}`).to.equal(200);
        expect(res.body).to.include({ sku: 'Fish-Oil', name: 'Fish oil', price: 20, status: 1 });
      }
    });

    it('should answer 404 with the Magento body for an unknown sku', async () => {
      const res = await get(allStores, 'NOPE-1');
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({
        message: "The product that was requested doesn't exist. Verify the product and try again.",
      });
    });
  });

  describe('when the input is invalid', () => {
    it('should say which required fields are missing', async () => {
      const res = await post(allStores, { product: { price: 1 } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'One or more input exceptions have occurred.',
        errors: [
          { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: 'product.sku' } },
          { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: 'product.name' } },
        ],
      });
    });

    it('should require the product itself', async () => {
      const res = await post(allStores, {});
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: '"%fieldName" is required. Enter and try again.',
        parameters: { fieldName: 'product' },
      });
    });

    for (const [field, value] of [
      ['status', 3],
      ['status', 'enabled'],
      ['price', 'cheap'],
      ['price', -1],
      ['sku', 'x'.repeat(65)],
      ['sku', '   '],
    ] as const) {
      it(`should reject ${field} ${JSON.stringify(value).slice(0, 20)} naming the field, and store nothing`, async () => {
        const res = await post(allStores, { product: { sku: 'BAD-1', name: 'Bad', [field]: value } });
        expect(res.status).to.equal(400);
        // A value of the wrong JSON type gets Magento's type message (TypeProcessor), a wrong value of the right type the invalid-value one.
        expect(res.body.message).to.equal(
          typeof value === 'string' && field !== 'sku'
            ? `Error occurred during "${field}" processing. Invalid type for value: "${value}". Expected Type: "${field === 'price' ? 'float' : 'int'}".`
            : 'Invalid value of "%value" provided for the %fieldName field.',
        );
        expect(res.body.parameters.fieldName).to.equal(`product.${field}`);
        expect((await get(allStores, 'BAD-1')).status).to.equal(404);
      });
    }

    it('should reject an unknown product field', async () => {
      const res = await post(allStores, { product: { sku: 'BAD-2', name: 'Bad', colour: 'red' } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Property "%fieldName" is not supported. Remove it and try again.',
        parameters: { fieldName: 'product.colour' },
      });
    });
  });

  describe('when the caller is bound to one store', () => {
    it('should refuse to write a product with a 401 and write nothing', async () => {
      const res = await post(storeBound, { product: { sku: 'LOCAL-1', name: 'Local' } }, 'default');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(ONE_STORE_ONLY);
      expect((await get(allStores, 'LOCAL-1')).status).to.equal(404);
    });

    it('should answer 401 without a token', async () => {
      const res = await t.request().get('/rest/V1/products/ANY');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(NOT_AUTHORIZED);
    });
  });

  describe('when an admin signs in', () => {
    before(async () => {
      const created = await t.cli('admin:user:create', '--username', 'admin', '--password', 'secret123');
      expect(created.code, created.err.join('\n')).to.equal(0);
    });

    it('should answer a bare token string that may write products', async () => {
      const res = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'admin', password: 'secret123' });
      expect(res.status).to.equal(200);
      expect(res.body)
        .to.be.a('string')
        .and.match(/^[a-z0-9]{32}$/);
      const saved = await post(res.body as string, { product: { sku: 'ADMIN-1', name: 'By admin', price: 3 } }, '');
      expect(saved.status).to.equal(200);
      expect(saved.body).to.include({ sku: 'ADMIN-1', price: 3 });
      expect((await get(res.body as string, 'admin-1')).body.id).to.equal(saved.body.id);
    });

    it('should answer the same 401 for a wrong password and an unknown user', async () => {
      const wrong = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'admin', password: 'secret124' });
      const unknown = await t
        .request()
        .post('/rest/V1/integration/admin/token')
        .send({ username: 'nobody', password: 'secret123' });
      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.body).to.deep.equal(unknown.body);
      expect(wrong.body.message).to.be.a('string');
    });
  });

  describe('when the repository is asked for many skus', () => {
    it('should key the products found by sku key and leave the missing ones out', async () => {
      const { ProductRepositoryInterface } =
        await import('../../../modules/Dispensary/Catalog/Api/ProductRepositoryInterface.js');
      const repository = t.app.get(ProductRepositoryInterface);
      const found = await repository.getBySkus([' vit-d3', 'FISH-OIL', 'missing', 'Vit-D3']);
      expect([...found.keys()].sort()).to.deep.equal(['fish-oil', 'vit-d3']);
      expect(found.get('vit-d3')).to.include({ sku: 'VIT-D3', price: 12.5 });
      expect((await repository.getBySkus([])).size).to.equal(0);
    });
  });
});
