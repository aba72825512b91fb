/**
 * Adobe Commerce webhooks' semantics where this project used to differ without saying so (issue 26,
 * point 3), each against Adobe's reference: `required` defaults to true, an `exception` without a
 * message answers `fallback_error_message`, `items[].sku` sends that field of every element,
 * `{env:NAME}` in a URL is read when the hook is called, every call carries
 * `x-adobe-commerce-request-id`, and a refused URL of a required hook is logged as required.
 */
import { expect } from 'chai';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { captureLogger } from '../Integration/support.js';
import { ok, skus, type Recommendation } from '../Recommendation/support.js';
import { WebhookWorld } from './support.js';

const SECRET = `whsec_${Buffer.from('adobe semantics secret, 32 bytes').toString('base64')}`;

describe("Webhooks: Adobe's semantics", function () {
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let r: Recommendation;
  const log = captureLogger();

  before(async () => {
    w = await WebhookWorld.start({ logger: log.logger });
    await w.d.products('S-1', 'S-2', 'S-3');
    receiver = await WebhookReceiver.start();
    receiver.secret = SECRET;
  });
  after(async () => {
    delete process.env.ADOBE_SEMANTICS_HOOK_BASE;
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    r = await w.d.recommendation({ recommendation: { items: [{ sku: 'S-1', qty: 1 }] } });
    receiver.received.length = 0;
    receiver.answer = () => ({ json: { op: 'success' } });
    log.lines.length = 0;
  });
  afterEach(async () => w.clear());

  it('should make a hook required when `required` is not given, as Adobe does', async () => {
    await w.subscribe({ url: receiver.url(), secret: SECRET, fallback_error_message: 'Stock check down.' });
    const list = await w.d.request().get('/rest/V1/webhooks/list').set('Authorization', `Bearer ${w.adminToken}`);
    expect((list.body as { required: boolean }[])[0]!.required).to.equal(true);
    receiver.answer = () => ({ status: 503, raw: '' });
    const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ message: 'Stock check down.' });
    expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['S-1']);
  });

  it("should answer the hook's fallback_error_message for an exception that carries no message", async () => {
    await w.subscribe({ url: receiver.url(), secret: SECRET, fallback_error_message: 'Not allowed here.' });
    receiver.answer = () => ({ json: { op: 'exception' } });
    const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ message: 'Not allowed here.' });
  });

  it('should send `items[].sku` as that field of every element of the array', async () => {
    await w.subscribe({
      url: receiver.url(),
      secret: SECRET,
      fields: [
        { name: 'items[].sku', source: 'recommendation.items[].sku' },
        { name: 'items[].quantity', source: 'recommendation.items[].qty' },
        { name: 'lines[].sku', source: 'recommendation.items[].sku' },
      ],
    });
    ok(
      await w.d.add(r.recommendation_id, {
        recommendation: {
          items: [
            { sku: 'S-2', qty: 2 },
            { sku: 'S-3', qty: 3 },
          ],
        },
      }),
    );
    expect(receiver.received[0]!.body).to.deep.equal({
      items: [
        { sku: 'S-2', quantity: 2 },
        { sku: 'S-3', quantity: 3 },
      ],
      lines: [{ sku: 'S-2' }, { sku: 'S-3' }],
    });
  });

  it('should accept `{env:NAME}` in a URL and a header, and read them when the hook is called', async () => {
    delete process.env.ADOBE_SEMANTICS_HOOK_BASE;
    process.env.ADOBE_SEMANTICS_TOKEN = 'token-from-env';
    await w.subscribe({
      url: '{env:ADOBE_SEMANTICS_HOOK_BASE}/check',
      secret: SECRET,
      fallback_error_message: 'No URL.',
      headers: [{ name: 'Authorization', value: 'Bearer {env:ADOBE_SEMANTICS_TOKEN}' }],
    });
    // Unset: the call fails as any failure of a required hook does, and is logged without a URL.
    const unset = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } });
    expect(unset.body).to.deep.equal({ message: 'No URL.' });
    expect(log.lines.find((l) => l.msg === 'webhook call failed')).to.include({
      outcome: 'unset_url_variable',
      required: true,
    });
    process.env.ADOBE_SEMANTICS_HOOK_BASE = receiver.url('').replace(/\/$/, '');
    ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } }));
    expect(receiver.received.map((call) => call.path)).to.deep.equal(['/check']);
    expect(receiver.received[0]!.headers.authorization).to.equal('Bearer token-from-env');
    delete process.env.ADOBE_SEMANTICS_TOKEN;
  });

  it("should refuse Adobe's context_* fields and rules at subscription (nothing here to read them from)", async () => {
    const field = await w.subscribeRaw({
      webhook_method: 'observer.dispensary_recommendation_items_add_after',
      webhook_type: 'after',
      batch_name: 'b',
      hook_name: 'h',
      url: receiver.url(),
      fields: [{ name: 'store', source: 'context_store.get_store.get_id' }],
    });
    expect(field.status).to.equal(400);
    expect(JSON.stringify(field.body)).to.include('context_store.get_store.get_id');
  });

  it('should send x-adobe-commerce-request-id: the id of the request the hook belongs to', async () => {
    await w.subscribe({ url: receiver.url(), secret: SECRET });
    const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } });
    ok(res);
    expect(receiver.received[0]!.headers['x-adobe-commerce-request-id']).to.be.a('string').and.not.equal('');
    expect(receiver.received[0]!.headers['x-adobe-commerce-request-id']).to.equal(res.headers['x-request-id']);
  });

  it('should log a refused URL of a required hook as required', async () => {
    process.env.ADOBE_SEMANTICS_HOOK_BASE = 'http://169.254.169.254';
    await w.subscribe({ url: '{env:ADOBE_SEMANTICS_HOOK_BASE}/latest', secret: SECRET });
    const res = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'S-2', qty: 1 }] } });
    expect(res.status).to.equal(400);
    expect(log.lines.find((l) => l.msg === 'webhook call failed')).to.include({
      outcome: 'refused_url',
      required: true,
    });
  });
});
