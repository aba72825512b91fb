import { expect } from 'chai';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

const REQUIRED = '"%fieldName" is required. Enter and try again.';
const INVALID = 'Invalid value of "%value" provided for the %fieldName field.';

describe('Web API: input mapping and validation', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  const post = (url: string, body: unknown, auth = 'Bearer good') =>
    shop.t
      .request()
      .post(url)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  describe('when body keys name the parameters', () => {
    it('should accept camelCase keys', async () => {
      const res = await post('/rest/V1/fixture/echo/7', {
        itemName: 'Vitamin C',
        qty: 2,
        options: { colour_name: 'red', sizes: [1, 2] },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        item_id: 7,
        item_name: 'Vitamin C',
        qty: 2,
        options: { colour_name: 'red', sizes: [1, 2] },
      });
    });

    it('should accept snake_case keys', async () => {
      const res = await post('/rest/V1/fixture/echo/7', { item_name: 'Vitamin D', qty: 3 });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ item_id: 7, item_name: 'Vitamin D', qty: 3, options: null });
    });

    it('should let the path parameter win over a body key of the same name, in either spelling', async () => {
      const res = await post('/rest/V1/fixture/echo/7', { item_id: 99, itemId: 98, itemName: 'x', qty: 1 });
      expect(res.status).to.equal(200);
      expect(res.body.item_id).to.equal(7);
    });

    it('should ignore unknown top-level keys', async () => {
      const res = await post('/rest/V1/fixture/echo/7', {
        itemName: 'x',
        qty: 1,
        colour: 'blue',
        extension_attributes: {},
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ item_id: 7, item_name: 'x', qty: 1, options: null });
    });

    it('should convert values as the joi schema says (a numeric string for a number)', async () => {
      const res = await post('/rest/V1/fixture/echo/7', { itemName: 'x', qty: '4' });
      expect(res.status).to.equal(200);
      expect(res.body.qty).to.equal(4);
    });

    it('should map the same way on PUT and on an anonymous route', async () => {
      let res = await shop.t
        .request()
        .put('/rest/V1/fixture/echo/5')
        .set('Authorization', 'Bearer good')
        .send({ item_name: 'p', qty: 1 });
      expect(res.status).to.equal(200);
      expect(res.body.item_id).to.equal(5);
      res = await shop.t.request().post('/rest/V1/fixture/public').send({ item_id: 3, item_name: 'q', qty: 1 });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ item_id: 3, item_name: 'q' });
    });
  });

  describe('when input is missing or invalid', () => {
    it("should answer Magento's required-field body for one missing parameter, named as Magento names it (camelCase)", async () => {
      // Magento's ServiceInputProcessor names the method's parameter (DeserializationTest: "entityItem").
      const res = await post('/rest/V1/fixture/echo/7', { qty: 1 });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'itemName' } });
    });

    it('should answer the invalid-value body naming the value and the field', async () => {
      const res = await post('/rest/V1/fixture/echo/7', { itemName: 'x', qty: 'lots' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Invalid type for value: "lots". Expected Type: "int".',
        parameters: { fieldName: 'qty' },
      });
    });

    it('should name a nested field by its path', async () => {
      const res = await post('/rest/V1/fixture/echo/7', { itemName: 'x', qty: 1, options: { sizes: [1, 'big'] } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Error occurred during "sizes" processing. Invalid type for value: "big". Expected Type: "int".',
        parameters: { fieldName: 'options.sizes[1]' },
      });
    });

    it('should name an unknown nested property', async () => {
      const res = await post('/rest/V1/fixture/orders', { order: { sku: 'a', qty: 1, colour: 'red' } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Property "%fieldName" is not supported. Remove it and try again.',
        parameters: { fieldName: 'order.colour' },
      });
    });

    it('should aggregate two or more errors, path parameter included', async () => {
      const res = await post('/rest/V1/fixture/echo/0', { qty: 1000, options: { sizes: ['x'] } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'One or more input exceptions have occurred.',
        errors: [
          { message: INVALID, parameters: { fieldName: 'item_id', value: '0' } },
          { message: REQUIRED, parameters: { fieldName: 'itemName' } },
          { message: INVALID, parameters: { fieldName: 'qty', value: '1000' } },
          {
            message: 'Error occurred during "sizes" processing. Invalid type for value: "x". Expected Type: "int".',
            parameters: { fieldName: 'options.sizes[0]' },
          },
        ],
      });
    });

    it('should list every missing field of a nested object', async () => {
      const res = await post('/rest/V1/fixture/orders', { order: {} });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'One or more input exceptions have occurred.',
        errors: [
          { message: REQUIRED, parameters: { fieldName: 'order.sku' } },
          { message: REQUIRED, parameters: { fieldName: 'order.qty' } },
        ],
      });
    });

    it('should treat a missing body like an empty one', async () => {
      const res = await shop.t.request().post('/rest/V1/fixture/orders').set('Authorization', 'Bearer good');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'order' } });
    });

    it('should answer 400 for a body that is JSON but not an object', async () => {
      for (const body of ['[1,2]', '"text"', '42', 'null']) {
        const res = await shop.t
          .request()
          .post('/rest/V1/fixture/orders')
          .set('Authorization', 'Bearer good')
          .set('Content-Type', 'application/json')
          .send(body);
        expect(res.status, body).to.equal(400);
        expect(res.body.message, body).to.be.a('string');
      }
    });
  });

  describe('when webapi.xml forces data parameters', () => {
    it('should inject the store over what the body says, %customer_id% as null for an integration (not a customer), and default unforced ones', async () => {
      const res = await post('/rest/V1/fixture/forced', { customerId: '1', payload: { storeId: '99', text: 'hi' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        customer_id: null,
        payload: { store_id: '1', text: 'hi' },
        note: 'default note',
      });
    });

    it('should keep a given value of an unforced parameter', async () => {
      const res = await post('/rest/all/V1/fixture/forced', { payload: {}, note: 'mine' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ customer_id: null, payload: { store_id: '0' }, note: 'mine' });
    });
  });
});
