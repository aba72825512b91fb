import { expect } from 'chai';
import { startShopApp, type ShopApp } from '../support/shopApp.js';

const REPORT = /^Internal Error\. Details are available in Magento log file\. Report ID: (webapi-[0-9a-f]+)$/;

describe('Web API: error bodies', () => {
  let shop: ShopApp;
  before(async () => {
    shop = await startShopApp();
  });
  after(async () => shop?.stop());

  const auth = { Authorization: 'Bearer good' };

  describe('when the service fails unexpectedly', () => {
    it('should answer 500 with a report id and no detail, and log the detail under that id', async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/boom');
      expect(res.status).to.equal(500);
      expect(Object.keys(res.body)).to.deep.equal(['message']);
      const reportId = REPORT.exec(res.body.message)?.[1];
      expect(reportId, res.body.message).to.be.a('string');
      expect(res.text).not.to.contain('hunter2');
      expect(res.text).not.to.contain('Shop.js');
      const logged = shop.logs.find((line) => line.reportId === reportId);
      expect(logged, 'log line with the report id').not.to.equal(undefined);
      expect(JSON.stringify(logged)).to.contain('hunter2');
    });

    it('should give every failure its own report id', async () => {
      const [a, b] = await Promise.all([
        shop.t.request().get('/rest/V1/fixture/boom'),
        shop.t.request().get('/rest/V1/fixture/boom'),
      ]);
      expect(a.body.message).not.to.equal(b.body.message);
    });
  });

  describe('when a service throws a Magento exception', () => {
    it('should answer its status with the raw phrase and parameters, without a trace', async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/orders/nope').set(auth);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({
        message: 'No such entity with %fieldName = %fieldValue',
        parameters: { fieldName: 'orderId', fieldValue: 'nope' },
      });
    });
  });

  describe('when the body cannot be read', () => {
    it('should answer 400 "Decoding error." for malformed JSON', async () => {
      const res = await shop.t
        .request()
        .post('/rest/V1/fixture/orders')
        .set(auth)
        .set('Content-Type', 'application/json')
        .send('{"order": {"sku": "a",}');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Decoding error.' });
    });

    it('should answer 415 naming the media type for a body that is not JSON', async () => {
      const res = await shop.t
        .request()
        .post('/rest/V1/fixture/orders')
        .set(auth)
        .set('Content-Type', 'text/plain')
        .send('order=1');
      expect(res.status).to.equal(415);
      expect(res.body).to.deep.equal({
        message: 'Server cannot understand Content-Type HTTP header media type %1',
        parameters: ['text/plain'],
      });
    });

    it("should answer 415 with Magento's text for a body without a Content-Type", async () => {
      const res = await shop.t
        .request()
        .post('/rest/V1/fixture/orders')
        .set(auth)
        .set('Content-Type', '')
        .send(Buffer.from('{"order": {}}'));
      expect(res.status).to.equal(415);
      expect(res.body).to.deep.equal({ message: 'Content-Type header is empty.' });
    });

    it('should accept application/json with a charset and +json media types', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
        const res = await shop.t
          .request()
          .post('/rest/V1/fixture/echo/1')
          .set(auth)
          .set('Content-Type', type)
          .send(JSON.stringify({ itemName: 'a', qty: 1 }));
        expect(res.status, type).to.equal(200);
      }
    });

    it('should answer 413 for a body over 1 MiB, and accept one just under it', async () => {
      const big = JSON.stringify({ itemName: 'x'.repeat(1024 * 1024), qty: 1 });
      const res = await shop.t
        .request()
        .post('/rest/V1/fixture/echo/1')
        .set(auth)
        .set('Content-Type', 'application/json')
        .send(big);
      expect(res.status).to.equal(413);
      expect(res.body.message).to.be.a('string');
      expect(res.body.parameters).to.deep.equal({ limit: 1024 * 1024 });
      const fits = JSON.stringify({ itemName: 'x'.repeat(1024 * 1024 - 100), qty: 1 });
      expect(
        (
          await shop.t
            .request()
            .post('/rest/V1/fixture/echo/1')
            .set(auth)
            .set('Content-Type', 'application/json')
            .send(fits)
        ).status,
      ).to.equal(200);
    });
  });
});

describe('Web API: error bodies in developer mode', () => {
  describe('when developerMode is set', () => {
    let shop: ShopApp;
    before(async () => {
      shop = await startShopApp({ developerMode: true });
    });
    after(async () => shop?.stop());

    it('should show the real message and the trace of an unexpected error', async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/boom');
      expect(res.status).to.equal(500);
      expect(res.body.message).to.equal('secret detail: the password is hunter2');
      expect(res.body.trace).to.be.a('string').and.contain('boom');
    });

    it('should add a trace to Magento exceptions too, keeping the raw phrase', async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/orders/nope').set('Authorization', 'Bearer good');
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('No such entity with %fieldName = %fieldValue');
      expect(res.body.trace).to.be.a('string').and.not.equal('');
    });
  });

  describe('when MAGE_MODE=developer is in the environment', () => {
    let shop: ShopApp;
    let previous: string | undefined;
    before(async () => {
      previous = process.env.MAGE_MODE;
      process.env.MAGE_MODE = 'developer';
      try {
        shop = await startShopApp({ developerMode: undefined });
      } finally {
        if (previous === undefined) delete process.env.MAGE_MODE;
        else process.env.MAGE_MODE = previous;
      }
    });
    after(async () => shop?.stop());

    it('should show the real message and the trace', async () => {
      const res = await shop.t.request().get('/rest/V1/fixture/boom');
      expect(res.status).to.equal(500);
      expect(res.body.message).to.equal('secret detail: the password is hunter2');
      expect(res.body.trace).to.be.a('string');
    });
  });
});
