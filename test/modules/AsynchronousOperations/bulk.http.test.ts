import { expect } from 'chai';
import { Dispensary, UUID } from '../Recommendation/support.js';
import { deleteTopology, QUEUE_MODES } from './support.js';

const ADD = '/async/bulk/V1/dispensary/recommendation/byRecommendationId/item';
const HASH = /^[0-9a-f]{64}$/;

for (const mode of QUEUE_MODES) {
  describe(`Async bulk web API on the ${mode.name} queue${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
    this.timeout(60_000);
    let d: Dispensary;
    let options: ReturnType<QueueMode['options']>;
    before(async function () {
      if (mode.unavailable) return this.skip();
      options = mode.options();
      d = await Dispensary.start(options);
      await d.products('B-1', 'B-2', 'B-3');
    });
    after(async () => {
      await d?.stop();
      if (mode.name === 'amqp' && options) await deleteTopology(options.amqpUrl!, options.queuePrefix);
    });

    const bulk = (path: string, body: unknown, token: string | null = d.token, scope = 'default') => {
      const req = d.request().post(`/rest/${scope}${path}`);
      return (token === null ? req : req.set('Authorization', `Bearer ${token}`)).send(body as object);
    };
    const consume = async (max: number) => {
      const result = await d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', String(max));
      expect(result.code, result.err.join('\n')).to.equal(0);
      return result.out.join('\n');
    };
    const status = (uuid: string, what = 'status', token = d.token) =>
      d.request().get(`/rest/V1/bulk/${uuid}/${what}`).set('Authorization', `Bearer ${token}`);

    describe('when a bulk of Add Items has an invalid element, then only valid ones', () => {
      let recommendationId: string;
      let uuid: string;
      let refused: { status: number; body: unknown };
      before(async () => {
        recommendationId = (await d.recommendation({ recommendation: { items: ['B-1'] } })).recommendation_id;
        refused = await bulk(ADD, [
          { recommendationId, recommendation: { items: [{ sku: 'B-2', qty: 2 }] } },
          { recommendation_id: recommendationId, recommendation: { items: [{ sku: 'B-3', qty: 0 }] } },
          { recommendationId, recommendation: { items: [{ sku: 'B-3', qty: 1 }] } },
        ]);
        const res = await bulk(ADD, [
          { recommendationId, recommendation: { items: [{ sku: 'B-2', qty: 2 }] } },
          { recommendation_id: recommendationId, recommendation: { items: [{ sku: 'B-3', qty: 1 }] } },
        ]);
        expect(res.status, JSON.stringify(res.body)).to.equal(202);
        uuid = res.body.bulk_uuid;
      });

      it('should refuse the whole request with a 400 naming the element and why, recording and queueing nothing', async () => {
        expect(refused.status).to.equal(400);
        expect(refused.body).to.deep.equal({
          message: 'Error processing %key element of input data: %error',
          parameters: { key: 1, error: 'Invalid value of "0" provided for the recommendation.items[0].qty field.' },
        });
        expect(await d.t.app.knex('magento_bulk').count({ n: '*' }).first()).to.satisfy(
          (r: { n: number | string }) => Number(r.n) === 1,
        );
      });

      it('should answer 202 with bulk_uuid, request_items and errors for the valid bulk, running nothing yet', async () => {
        expect(uuid).to.match(UUID);
        const res = await status(uuid);
        expect(res.status).to.equal(200);
        expect(res.body.operations_list.map((o: { status: number }) => o.status)).to.deep.equal([4, 4]);
        expect(res.body.operations_list[1]).to.deep.equal({ id: 1, status: 4, result_message: null, error_code: null });
        expect(res.body).to.include({ bulk_id: uuid, user_type: 1, operation_count: 2 });
        expect(res.body.description).to.equal(
          'Topic async.dispensary.recommendation.api.recommendationitemmanagementinterface.additems.post',
        );
        expect(res.body.operations_counter).to.deep.equal({
          operations_total: 2,
          open: 2,
          operations_successful: 0,
          total_failed: 0,
          failed_not_retriable: 0,
          failed_retriable: 0,
          rejected: 0,
        });
        // Nothing ran yet.
        expect((await d.read(recommendationId)).items.map((i) => i.sku)).to.deep.equal(['B-1']);
      });

      it('should let a consumer apply the accepted elements through the contract, then report them complete', async () => {
        await consume(2);
        expect((await d.read(recommendationId)).items.map((i) => [i.sku, i.qty])).to.deep.equal([
          ['B-1', 1],
          ['B-2', 2],
          ['B-3', 1],
        ]);
        const res = await status(uuid, 'detailed-status');
        expect(res.status).to.equal(200);
        const [first, second] = res.body.operations_list;
        expect(first).to.include({
          id: 0,
          status: 1,
          bulk_uuid: uuid,
          topic_name: 'async.dispensary.recommendation.api.recommendationitemmanagementinterface.additems.post',
          result_message:
            'Service execution success Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface::addItems',
          error_code: null,
        });
        expect(JSON.parse(first.result_serialized_data)).to.include({ recommendation_id: recommendationId });
        expect(second.status).to.equal(1);
        expect((await status(uuid, 'operation-status/1')).body).to.equal(2);
        expect((await status(uuid, 'operation-status/5')).body).to.equal(0);
        expect((await status(uuid, 'operation-status/4')).body).to.equal(0);
      });

      it('should hide the bulk from any other caller, as if it did not exist', async () => {
        const other = await d.t.integrationToken({ allStores: true });
        for (const what of ['status', 'detailed-status', 'operation-status/1']) {
          const res = await status(uuid, what, other);
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.equal({ message: 'Bulk uuid %bulkUuid not exist', parameters: { bulkUuid: uuid } });
        }
      });
    });

    describe('when the request itself is wrong', () => {
      it('should answer 400 above 10,000 elements, for a body that is not an array, and for an empty one', async () => {
        const element = {
          recommendationId: '00000000-0000-4000-8000-000000000000',
          recommendation: { items: [{ sku: 'B-1', qty: 1 }] },
        };
        const tooMany = await bulk(
          ADD,
          Array.from({ length: 10_001 }, () => element),
        );
        expect(tooMany.status).to.equal(400);
        expect(tooMany.body).to.deep.equal({
          message: 'A bulk request can contain at most %limit operations; this one has %count.',
          parameters: { limit: 10_000, count: 10_001 },
        });
        expect((await bulk(ADD, element)).status).to.equal(400);
        expect((await bulk(ADD, [])).status).to.equal(400);
        expect(await d.t.app.knex('magento_bulk').count({ n: '*' }).first()).to.satisfy(
          (r: { n: number | string }) => Number(r.n) === 1,
        );
      });

      it('should answer 401 without a token and 400 for an unknown store, queueing nothing', async () => {
        const element = [
          {
            recommendationId: '00000000-0000-4000-8000-000000000000',
            recommendation: { items: [{ sku: 'B-1', qty: 1 }] },
          },
        ];
        expect((await bulk(ADD, element, null)).status).to.equal(401);
        expect((await bulk(ADD, element, d.token, 'no_such_store')).status).to.equal(400);
        expect(await d.t.app.knex('magento_bulk').count({ n: '*' }).first()).to.satisfy(
          (r: { n: number | string }) => Number(r.n) === 1,
        );
      });

      it('should refuse a bulk whose element has a path parameter holding NUL, naming the element and the field once', async () => {
        const res = await bulk(ADD, [
          {
            recommendationId: '00000000-0000-4000-8000-000000000000',
            recommendation: { items: [{ sku: 'B-1', qty: 1 }] },
          },
          {
            recommendationId: '00000000-0000-4000-8000-000000000000\u0000',
            recommendation: { items: [{ sku: 'B-1', qty: 1 }] },
          },
          'not an object',
        ]);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.equal({
          message: 'One or more input exceptions have occurred.',
          errors: [
            {
              message: 'Error processing %key element of input data: %error',
              parameters: {
                key: 1,
                error:
                  'Invalid value of "00000000-0000-4000-8000-000000000000\\u0000" provided for the recommendationId field.',
              },
            },
            {
              message: 'Error processing %key element of input data: %error',
              parameters: { key: 2, error: 'Each operation of a bulk request must be a JSON object.' },
            },
          ],
        });
      });

      it('should answer 400 "Specified request cannot be processed." for any GET under /async, as Magento does', async () => {
        for (const path of [
          '/rest/default/async/V1/dispensary/recommendation/x',
          '/rest/async/V1/products/x',
          '/rest/default/async/bulk/V1/products',
          '/rest/async/V1/no/such/route',
        ]) {
          const get = await d.request().get(path).set('Authorization', `Bearer ${d.token}`);
          expect(get.status, path).to.equal(400);
          expect(get.body, path).to.deep.equal({ message: 'Specified request cannot be processed.' });
        }
      });

      it('should answer 404 for an anonymous route or an unknown path under /async', async () => {
        expect((await bulk('/async/bulk/V1/dispensary/recommendation/:recommendationId/item', [{}])).status).to.equal(
          404,
        );
        // Anonymous routes have no async form.
        const token = await d
          .request()
          .post('/rest/async/V1/integration/admin/token')
          .send({ username: 'x', password: 'y' });
        expect(token.status).to.equal(404);
      });
    });

    describe('when one request goes to /async/V1 and fails when it runs', () => {
      it('should answer 202 at once and mark the operation failed (3) with its message and no retry', async () => {
        const r = await d.recommendation();
        const res = await d
          .request()
          .post(`/rest/default/async/V1/dispensary/recommendation/${r.recommendation_id}/item`)
          .set('Authorization', `Bearer ${d.token}`)
          .send({ recommendation: { items: [{ sku: 'NOT-IN-CATALOG', qty: 1 }] } });
        expect(res.status, JSON.stringify(res.body)).to.equal(202);
        expect(res.body.request_items).to.have.length(1);
        expect(res.body.request_items[0]).to.include({ id: 0, status: 'accepted' });
        expect(res.body.request_items[0].data_hash).to.match(HASH);
        expect(res.body.errors).to.equal(false);
        await consume(1);
        const op = (await status(res.body.bulk_uuid)).body.operations_list[0];
        expect(op.status).to.equal(3);
        expect(op.error_code).to.equal(400);
        expect(op.result_message).to.contain('NOT-IN-CATALOG');
        const row = await d.t.app.knex('magento_operation').where('bulk_uuid', res.body.bulk_uuid).first();
        expect(row.started_count).to.equal(0); // rolled back with the failed call: one run, not repeated
      });

      it('should answer 400 for invalid input on the single route, as the synchronous route does', async () => {
        const r = await d.recommendation();
        const res = await d
          .request()
          .post(`/rest/default/async/V1/dispensary/recommendation/${r.recommendation_id}/item`)
          .set('Authorization', `Bearer ${d.token}`)
          .send({ recommendation: { items: [{ sku: '', qty: 1 }] } });
        expect(res.status).to.equal(400);
        expect(res.body.message).to.equal('Invalid value of "%value" provided for the %fieldName field.');
      });
    });

    describe('when a message on the queue is not an operation (poison)', () => {
      it('should move it to the dead-letter queue once and not loop on it', async () => {
        await d.t.app.queue.publish('async.poison.test', ['this is not json']);
        const out = await consume(1);
        expect(out).to.contain('processed 1 message(s)');
        const queueName = `${options.queuePrefix}async.operations.all`;
        const depth = await d.t.app.queue.depth(queueName);
        expect(depth).to.deep.equal({ queue: queueName, ready: 0, deadLetters: 1 });
        const statusOut = await d.t.cli('queue:status');
        expect(statusOut.out.join('\n')).to.contain(`${queueName}\tready 0\tdead letters 1`);
      });
    });

    describe('when one batch holds a failing operation and a poison message', () => {
      it('should dead-letter the poison, fail that operation alone, and apply the others once, in order', async () => {
        const r = (await d.recommendation()).recommendation_id;
        const first = await bulk(ADD, [
          { recommendationId: r, recommendation: { items: [{ sku: 'B-1', qty: 1 }] } },
          { recommendationId: r, recommendation: { items: [{ sku: 'NOT-IN-CATALOG', qty: 1 }] } },
          { recommendationId: r, recommendation: { items: [{ sku: 'B-2', qty: 1 }] } },
        ]);
        await d.t.app.queue.publish('async.poison.test', ['this is not json either']);
        const second = await bulk(ADD, [{ recommendationId: r, recommendation: { items: [{ sku: 'B-3', qty: 1 }] } }]);
        // Five messages, one batch (CONSUMER_BATCH_SIZE defaults to more).
        expect(await consume(5)).to.contain('processed 5 message(s)');
        const ops = await d.t.app
          .knex('magento_operation')
          .whereIn('bulk_uuid', [first.body.bulk_uuid, second.body.bulk_uuid])
          .orderBy('id');
        expect(ops.map((o: { status: number }) => o.status)).to.deep.equal([1, 3, 1, 1]);
        expect(ops[1]).to.include({ error_code: 400 });
        expect(ops[1].result_message).to.contain('NOT-IN-CATALOG');
        // Taken by the batch's one statement, its failure committed with the batch (the single path rolls its start back: 0).
        expect(ops.map((o: { started_count: number }) => o.started_count)).to.deep.equal([1, 1, 1, 1]);
        expect((await d.read(r)).items.map((i: { sku: string }) => i.sku)).to.deep.equal(['B-1', 'B-2', 'B-3']);
        const queueName = `${options.queuePrefix}async.operations.all`;
        expect(await d.t.app.queue.depth(queueName)).to.deep.equal({ queue: queueName, ready: 0, deadLetters: 2 }); // this one and the poison test's
      });
    });
  });
}

type QueueMode = (typeof QUEUE_MODES)[number];
