import { expect } from 'chai';
import { stockItem } from '../../../modules/Dispensary/Catalog/Api/Data/StockItemInterface.js';
import { Dispensary } from '../Recommendation/support.js';

/** Product writes are scope="global": a store-bound token is refused at authorization, before its body is read. */
const ONE_STORE_ONLY = {
  message:
    'The token is bound to one store, and this request changes data shared by all stores. Use a token for all stores.',
};

describe('Catalog: PUT and DELETE /V1/products/:sku, stock items', () => {
  let d: Dispensary;
  let storeBound: string;

  before(async () => {
    d = await Dispensary.start();
    storeBound = await d.t.integrationToken({ store: 'default' });
  });
  after(async () => d?.stop());

  const put = (sku: string, body: unknown, token: string = d.token, scope = 'all') =>
    d.call('put', scope, `/products/${sku}`, token).send(body as object);
  const get = (sku: string) => d.call('get', 'all', `/products/${sku}`);

  describe('when a product is updated through PUT', () => {
    it("should change only the fields given, with the path's sku winning over the body's", async () => {
      await d.product('PUT-1', { name: 'Put one' });
      const res = await put('put-1', { product: { sku: 'OTHER-SKU', price: 42 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ sku: 'put-1', name: 'Put one', price: 42, status: 1 });
      expect((await get('OTHER-SKU')).status).to.equal(404);
      expect((await get('PUT-1')).body).to.include({ id: res.body.id, price: 42 });
    });

    it("should create the product when the sku is new, as Magento's save does, and then need its name", async () => {
      const created = await put('NEW-BY-PUT', { product: { name: 'Created by PUT', price: 7 } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.include({ sku: 'NEW-BY-PUT', name: 'Created by PUT', price: 7, status: 1 });
      const nameless = await put('NEW-NAMELESS', { product: { price: 7 } });
      expect(nameless.status).to.equal(400);
      expect(nameless.body).to.deep.equal({
        message: '"%fieldName" is required. Enter and try again.',
        parameters: { fieldName: 'product.name' },
      });
      expect((await get('NEW-NAMELESS')).status).to.equal(404);
    });

    it("should store the stock qty, set the stock status from it unless given, and answer Magento's stock item", async () => {
      await d.product('STOCK-1');
      const five = await put('STOCK-1', {
        product: { extension_attributes: { stock_item: { qty: 5, min_qty: 0, use_config_min_qty: true } } },
      });
      expect(five.status, JSON.stringify(five.body)).to.equal(200);
      expect(five.body.extension_attributes.stock_item).to.deep.equal(stockItem(five.body.id, 5, true));
      const none = await put('STOCK-1', { product: { extension_attributes: { stock_item: { qty: 0 } } } });
      expect(none.body.extension_attributes.stock_item).to.include({ qty: 0, is_in_stock: false });
      const forced = await put('STOCK-1', {
        product: { extension_attributes: { stock_item: { qty: 0, is_in_stock: true } } },
      });
      expect(forced.body.extension_attributes.stock_item).to.include({ qty: 0, is_in_stock: true });
      const decimal = await put('STOCK-1', { product: { extension_attributes: { stock_item: { qty: 2.5 } } } });
      expect(decimal.body.extension_attributes.stock_item).to.include({ qty: 2.5, is_in_stock: true });
      const posted = await d
        .call('post', 'all', '/products')
        .send({ product: { sku: 'STOCK-2', name: 'Posted', extension_attributes: { stock_item: { qty: 12 } } } });
      expect(posted.body.extension_attributes.stock_item).to.include({ qty: 12, is_in_stock: true, stock_id: 1 });
    });

    it('should read the stock item through GET /V1/stockItems/:productSku', async () => {
      await put('STOCK-3', { product: { name: 'Stock three', extension_attributes: { stock_item: { qty: 9 } } } });
      const res = await d.call('get', '', '/stockItems/stock-3', storeBound);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const product = (await get('STOCK-3')).body;
      expect(res.body).to.deep.equal(stockItem(product.id, 9, true));
      const missing = await d.call('get', '', '/stockItems/NOPE');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({
        message: 'The Product with the "%1" SKU doesn\'t exist.',
        parameters: ['NOPE'],
      });
    });

    it('should set qty and status through PUT /V1/products/:productSku/stockItems/:itemId, answering the item id', async () => {
      await d.product('STOCK-4');
      const { id } = (await get('STOCK-4')).body;
      const res = await d
        .call('put', 'all', `/products/stock-4/stockItems/${id}`)
        .send({ stockItem: { qty: 3, manage_stock: true } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.equal(id);
      expect((await d.call('get', 'all', '/stockItems/STOCK-4')).body).to.include({ qty: 3, is_in_stock: true });
      await d.call('put', 'all', `/products/STOCK-4/stockItems/${id}`).send({ stockItem: { is_in_stock: false } });
      expect((await d.call('get', 'all', '/stockItems/STOCK-4')).body).to.include({ qty: 3, is_in_stock: false });
      const missing = await d.call('put', 'all', '/products/NO-SUCH/stockItems/1').send({ stockItem: { qty: 1 } });
      expect(missing.status).to.equal(404);
      expect((await get('NO-SUCH')).status).to.equal(404);
      const denied = await d
        .call('put', 'default', `/products/STOCK-4/stockItems/${id}`, storeBound)
        .send({ stockItem: { qty: 9 } });
      expect(denied.status).to.equal(401);
      expect((await d.call('get', 'all', '/stockItems/STOCK-4')).body.qty).to.equal(3);
    });

    it('should refuse bad input and a store-bound token, changing nothing', async () => {
      await d.product('PUT-BAD', { name: 'Unchanged' });
      const bad = await put('PUT-BAD', {
        product: { price: -1, extension_attributes: { stock_item: { qty: 'many' } } },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors.map((e: { parameters: { fieldName: string } }) => e.parameters.fieldName)).to.deep.equal([
        'product.price',
        'product.extension_attributes.stock_item.qty',
      ]);
      const denied = await put('PUT-BAD', { product: { name: 'Changed' } }, storeBound, 'default');
      expect(denied.status).to.equal(401);
      expect(denied.body).to.deep.equal(ONE_STORE_ONLY);
      expect((await get('PUT-BAD')).body).to.include({ name: 'Unchanged', price: 10 });
    });

    it('should refuse a stock item field Magento does not have (a typo is not silently dropped), accepting its real ones', async () => {
      await d.product('STOCK-TYPO', { name: 'Typo' });
      await put('STOCK-TYPO', { product: { extension_attributes: { stock_item: { qty: 4 } } } });
      const unsupported = (fieldName: string) => ({
        message: 'Property "%fieldName" is not supported. Remove it and try again.',
        parameters: { fieldName },
      });
      const typo = await put('STOCK-TYPO', {
        product: { extension_attributes: { stock_item: { qty: 0, is_instock: false } } },
      });
      expect(typo.status).to.equal(400);
      expect(typo.body).to.deep.equal(unsupported('product.extension_attributes.stock_item.is_instock'));
      const viaStock = await d
        .call('put', 'all', '/products/STOCK-TYPO/stockItems/1')
        .send({ stockItem: { qty: 0, is_instock: false } });
      expect(viaStock.status).to.equal(400);
      expect(viaStock.body).to.deep.equal(unsupported('stock_item.is_instock'));
      expect((await get('STOCK-TYPO')).body.extension_attributes.stock_item).to.include({ qty: 4, is_in_stock: true });
      // What a client read from Magento (website_id and extension_attributes included) can be sent back.
      const readBack = {
        ...(await d.call('get', 'all', '/stockItems/STOCK-TYPO')).body,
        website_id: 0,
        extension_attributes: {},
        qty: 6,
      };
      const ok = await d.call('put', 'all', '/products/STOCK-TYPO/stockItems/1').send({ stockItem: readBack });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect((await get('STOCK-TYPO')).body.extension_attributes.stock_item).to.include({ qty: 6, is_in_stock: true });
    });
  });

  describe('when a product is deleted', () => {
    it('should answer true, then 404 for it', async () => {
      await d.product('DEL-1');
      const res = await d.call('delete', 'all', '/products/del-1');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.equal(true);
      expect((await get('DEL-1')).status).to.equal(404);
      const again = await d.call('delete', 'all', '/products/DEL-1');
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({
        message: "The product that was requested doesn't exist. Verify the product and try again.",
      });
    });

    it('should refuse a store-bound token and keep the product', async () => {
      await d.product('DEL-2');
      const res = await d.call('delete', 'default', '/products/DEL-2', storeBound);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(ONE_STORE_ONLY);
      expect((await get('DEL-2')).status).to.equal(200);
    });

    it('should keep the items of recommendations that name it, now out of stock, and refuse to add it again', async () => {
      await d.products('DEL-REC', 'KEEP-REC');
      const rec = await d.recommendation({ recommendation: { items: ['DEL-REC', 'KEEP-REC'] } });
      expect((await d.call('delete', 'all', '/products/DEL-REC')).body).to.equal(true);
      const read = await d.read(rec.recommendation_id);
      expect(read.items.map((i) => [i.sku, i.availability])).to.deep.equal([
        ['DEL-REC', 'out of stock'],
        ['KEEP-REC', 'in stock'],
      ]);
      const updated = await d.update(rec.recommendation_id, {
        recommendation: { items: [{ sku: 'del-rec', qty: 3 }] },
      });
      expect(updated.status).to.equal(200);
      expect(updated.body.items[0]).to.include({ sku: 'DEL-REC', qty: 3, availability: 'out of stock' });
      const other = await d.recommendation({ recommendation: { items: ['KEEP-REC'] } });
      const added = await d.add(other.recommendation_id, { recommendation: { items: [{ sku: 'DEL-REC', qty: 1 }] } });
      expect(added.status).to.equal(400);
      expect(JSON.stringify(added.body)).to.include('DEL-REC');
    });
  });

  describe('when a path parameter holds + or %2B', () => {
    it("should read + as a space and %2B as a plus, as Magento's router decodes", async () => {
      await d.product('VIT D3');
      await d.product('A+B');
      const spaced = await d.call('get', 'all', '/products/VIT+D3');
      expect(spaced.status, JSON.stringify(spaced.body)).to.equal(200);
      expect(spaced.body.sku).to.equal('VIT D3');
      const plus = await d.call('get', 'all', '/products/A%2BB');
      expect(plus.status).to.equal(200);
      expect(plus.body.sku).to.equal('A+B');
      expect((await d.call('put', 'all', '/products/VIT+D3').send({ product: { price: 1 } })).body).to.include({
        sku: 'VIT D3',
        price: 1,
      });
      const literal = await d.request().get('/rest/all/V1/products/A+B').set('Authorization', `Bearer ${d.token}`);
      expect(literal.status).to.equal(404);
    });
  });
});
