/** The bulk consumer runs the same hooks as the synchronous route, on both queues. */
import { expect } from 'chai';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { deleteTopology, QUEUE_MODES } from '../AsynchronousOperations/support.js';
import { skus, type Recommendation } from '../Recommendation/support.js';
import { WebhookWorld } from './support.js';

const SECRET = `whsec_${Buffer.from('a test secret of thirty-two bytes!').toString('base64')}`;

for (const mode of QUEUE_MODES) {
  describe(`Webhooks: the bulk consumer runs the same hooks (${mode.name} queue)`, function () {
    this.timeout(60_000);
    let w: WebhookWorld;
    let receiver: WebhookReceiver;
    let r: Recommendation;
    const options = mode.options();

    before(async function () {
      if (mode.unavailable) return this.skip();
      w = await WebhookWorld.start(options);
      await w.d.products('W-1', 'W-2', 'W-3');
      receiver = await WebhookReceiver.start();
      receiver.secret = SECRET;
      r = await w.d.recommendation({ recommendation: { items: [{ sku: 'W-1', qty: 1 }] } });
    });
    after(async () => {
      await receiver?.stop();
      await w?.stop();
      if (options.amqpUrl) await deleteTopology(options.amqpUrl, options.queuePrefix);
    });

    async function runBulk(items: unknown[]): Promise<{ status: number; result_message: string }> {
      const res = await w.d
        .request()
        .post('/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item')
        .set('Authorization', `Bearer ${w.d.token}`)
        .send([{ recommendationId: r.recommendation_id, recommendation: { items } }]);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const consumed = await w.d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', '1');
      expect(consumed.code, consumed.err.join('\n')).to.equal(0);
      const status = await w.d
        .request()
        .get(`/rest/V1/bulk/${res.body.bulk_uuid}/detailed-status`)
        .set('Authorization', `Bearer ${w.d.token}`);
      return status.body.operations_list[0];
    }

    it('should store a qty the before hook changed, and fail the operation with the message of its veto', async () => {
      await w.subscribe({ url: receiver.url(), secret: SECRET });
      receiver.answer = () => ({ json: { op: 'replace', path: 'recommendation/items/0/qty', value: 9 } });
      expect(await runBulk([{ sku: 'W-2', qty: 1 }])).to.include({ status: 1 });
      expect((await w.d.read(r.recommendation_id)).items.find((item) => item.sku === 'W-2')!.qty).to.equal(9);
      expect(receiver.received[0]!.verified).to.equal(true);
      receiver.answer = () => ({ json: { op: 'exception', message: 'Not W-3.' } });
      expect(await runBulk([{ sku: 'W-3', qty: 1 }])).to.include({ status: 3, result_message: 'Not W-3.' });
      expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['W-1', 'W-2']);
    });

    // Batched consumers (CONSUMER_BATCH_SIZE > 1) apply several operations in one transaction: the
    // before hooks still run for each, outside it, and a veto fails its operation alone.
    it('should run the hooks of every operation of a batch: one changed, one vetoed, alone', async () => {
      const other = await w.d.recommendation({ recommendation: { items: [{ sku: 'W-1', qty: 1 }] } });
      const vetoed = await w.d.recommendation({ recommendation: { items: [{ sku: 'W-1', qty: 1 }] } });
      receiver.answer = (received) =>
        JSON.stringify(received.body).includes(vetoed.recommendation_id)
          ? { json: { op: 'exception', message: 'Not this one.' } }
          : { json: { op: 'replace', path: 'recommendation/items/0/qty', value: 7 } };
      const res = await w.d
        .request()
        .post('/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item')
        .set('Authorization', `Bearer ${w.d.token}`)
        .send([
          { recommendationId: other.recommendation_id, recommendation: { items: [{ sku: 'W-2', qty: 1 }] } },
          { recommendationId: vetoed.recommendation_id, recommendation: { items: [{ sku: 'W-2', qty: 1 }] } },
        ]);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const before = receiver.received.length;
      const consumed = await w.d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', '2');
      expect(consumed.code, consumed.err.join('\n')).to.equal(0);
      expect(receiver.received.length - before).to.equal(2);
      const status = await w.d
        .request()
        .get(`/rest/V1/bulk/${res.body.bulk_uuid}/detailed-status`)
        .set('Authorization', `Bearer ${w.d.token}`);
      const [first, second] = status.body.operations_list as { status: number; result_message: string }[];
      expect(first).to.include({ status: 1 });
      expect(second).to.include({ status: 3, result_message: 'Not this one.' });
      expect((await w.d.read(other.recommendation_id)).items.find((item) => item.sku === 'W-2')!.qty).to.equal(7);
      expect(skus(await w.d.read(vetoed.recommendation_id))).to.deep.equal(['W-1']);
    });
  });
}
