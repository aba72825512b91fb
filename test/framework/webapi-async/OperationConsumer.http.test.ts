/**
 * The consumer's failure policy, on the real application and database: a transient failure is
 * retried with backoff, then recorded as 2 and given back to the queue; a 4xx-class failure is
 * recorded as 3 at once, without a retry. The route handler is wrapped to fail on cue. In batches:
 * a failing operation is rolled back alone (savepoint), a transient failure abandons the batch for
 * the one-at-a-time path, a poison message is dead-lettered, a completed operation is not rerun.
 */
import { expect } from 'chai';
import type { RouteDefinition } from '../../../app/framework/config/WebapiConfig.js';
import { OperationManagementInterface } from '../../../app/framework/bulk/BulkManagementInterface.js';
import { OperationConsumer } from '../../../app/framework/webapi-async/OperationConsumer.js';
import { UnitOfWork } from '../../../app/framework/db/UnitOfWork.js';
import type { RouteHandler } from '../../../app/framework/webapi/RouteHandler.js';
import { NoSuchEntityException } from '../../../app/framework/exception/LocalizedException.js';
import { ServiceUnavailableException } from '../../../app/framework/exception/ServiceUnavailableException.js';
import type { Delivery, DeliveryBatch } from '../../../app/framework/queue/QueueConnection.js';
import { Dispensary } from '../../modules/Recommendation/support.js';

describe('Async operations consumer: failure policy', function () {
  this.timeout(30_000);
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start({ amqpUrl: null });
    await d.products('C-1', 'C-2');
  });
  after(async () => d?.stop());

  /** One queued Add Items operation; answers its message body. */
  async function queued(sku: string): Promise<{ body: string; uuid: string }> {
    const r = await d.recommendation();
    const res = await d
      .request()
      .post(`/rest/default/async/V1/dispensary/recommendation/${r.recommendation_id}/item`)
      .set('Authorization', `Bearer ${d.token}`)
      .send({ recommendation: { items: [{ sku, qty: 1 }] } });
    expect(res.status).to.equal(202);
    const row = (await d.t.app.knex('queue_message').orderBy('id', 'desc').first()) as { id: number; body: string };
    await d.t.app.knex('queue_message').where('id', row.id).delete(); // handled by hand below
    return { body: row.body, uuid: res.body.bulk_uuid as string };
  }

  let unitOfWork: UnitOfWork | undefined;
  function consumer(failures: (args: unknown[]) => Error | null, afterWrite = false) {
    const app = d.t.app;
    unitOfWork ??= new UnitOfWork(app.knex);
    return new OperationConsumer({
      queue: app.queue,
      queueName: 'unused',
      operations: app.get<OperationManagementInterface>(OperationManagementInterface.name),
      routes: app.routes.keys(),
      handler: (route: RouteDefinition) => {
        const real = app.routeHandler(route);
        // The real handler, its invoke() failing on cue.
        return Object.assign(Object.create(real) as RouteHandler, {
          invoke: async (args: unknown[]) => {
            const failure = failures(args);
            if (failure && !afterWrite) throw failure;
            const result = await real.invoke(args);
            if (failure) throw failure; // after the service wrote: only a rollback undoes it
            return result;
          },
        });
      },
      unitOfWork,
      logger: app.logger,
      retryDelaysMs: [5, 5, 5],
    });
  }

  function delivery(body: string) {
    const calls: string[] = [];
    const value: Delivery = {
      body,
      redelivered: false,
      ack: async () => void calls.push('ack'),
      requeue: async () => void calls.push('requeue'),
      deadLetter: async () => void calls.push('deadLetter'),
    };
    return { value, calls };
  }

  const operation = async (uuid: string) => d.t.app.knex('magento_operation').where('bulk_uuid', uuid).first();

  /** Deliveries of one batch, and what happened to each. */
  function batch(bodies: string[]) {
    const outcomes = bodies.map(() => [] as string[]);
    const deliveries = bodies.map((body, i) => ({
      body,
      redelivered: false,
      ack: async () => void outcomes[i]!.push('ack'),
      requeue: async () => void outcomes[i]!.push('requeue'),
      deadLetter: async () => void outcomes[i]!.push('deadLetter'),
    }));
    const value: DeliveryBatch = {
      deliveries,
      ack: async (some) => void (await Promise.all(some.map((d) => d.ack()))),
    };
    return { value, outcomes };
  }

  const skuOf = (args: unknown[]) => JSON.stringify(args).match(/"sku":"([^"]+)"/)?.[1];
  const items = async (uuid: string) => {
    const op = (await operation(uuid)) as { serialized_data: string };
    const recommendationId = (JSON.parse(op.serialized_data) as { args: string[] }).args[0]!;
    return (
      (await d.t.app
        .knex('dispensary_recommendation_item')
        .where('recommendation_id', recommendationId)
        .orderBy('entity_id')
        .select('sku')) as { sku: string }[]
    ).map((i) => i.sku);
  };

  it('should retry a transient failure with backoff and complete the operation once', async () => {
    const { body, uuid } = await queued('C-1');
    let calls = 0;
    const { value, calls: outcome } = delivery(body);
    await consumer(() => (++calls <= 2 ? new ServiceUnavailableException() : null)).handle(value);
    expect(calls).to.equal(3);
    expect(outcome).to.deep.equal(['ack']);
    expect(await operation(uuid)).to.include({ status: 1, started_count: 1 });
  });

  it('should mark a transient failure that persists as 2 and give the message back', async () => {
    const { body, uuid } = await queued('C-1');
    let calls = 0;
    const { value, calls: outcome } = delivery(body);
    await consumer(() => (++calls, new ServiceUnavailableException())).handle(value);
    expect(calls).to.equal(4); // the first try and three retries
    expect(outcome).to.deep.equal(['requeue']);
    expect(await operation(uuid)).to.include({ status: 2, error_code: 503, started_count: 0 });
    // The redelivery runs it (status 2 is runnable) and completes it.
    const again = delivery(body);
    await consumer(() => null).handle(again.value);
    expect(again.calls).to.deep.equal(['ack']);
    expect(await operation(uuid)).to.include({ status: 1, started_count: 1 });
  });

  it('should mark a 4xx-class failure 3 with its message, without a retry, and skip it when redelivered', async () => {
    const { body, uuid } = await queued('C-2');
    let calls = 0;
    const { value, calls: outcome } = delivery(body);
    await consumer(() => (++calls, NoSuchEntityException.singleField('x', 'y'))).handle(value);
    expect(calls).to.equal(1);
    expect(outcome).to.deep.equal(['ack']);
    expect(await operation(uuid)).to.include({
      status: 3,
      error_code: 404,
      result_message: 'No such entity with x = y',
    });
    const again = delivery(body);
    let ran = false;
    await consumer(() => ((ran = true), null)).handle(again.value);
    expect(ran).to.equal(false);
    expect(again.calls).to.deep.equal(['ack']);
  });

  it('should acknowledge without running again a redelivered message of a completed operation', async () => {
    const { body, uuid } = await queued('C-2');
    await consumer(() => null).handle(delivery(body).value);
    let ran = false;
    const again = delivery(body);
    await consumer(() => ((ran = true), null)).handle(again.value);
    expect(ran).to.equal(false);
    expect(again.calls).to.deep.equal(['ack']);
    expect(await operation(uuid)).to.include({ status: 1, started_count: 1 });
  });

  describe('in batches', () => {
    it('should roll back a failing operation alone (its writes too), record it failed, and commit the others with one ack each', async () => {
      const queuedOps = [await queued('C-1'), await queued('C-2'), await queued('C-1')];
      const { value, outcomes } = batch([
        queuedOps[0]!.body,
        queuedOps[1]!.body,
        'not an operation',
        queuedOps[2]!.body,
      ]);
      await consumer(
        (args) => (skuOf(args) === 'C-2' ? NoSuchEntityException.singleField('sku', 'C-2') : null),
        true,
      ).handleBatch(value);
      expect(outcomes).to.deep.equal([['ack'], ['ack'], ['deadLetter'], ['ack']]);
      expect(await operation(queuedOps[0]!.uuid)).to.include({ status: 1, started_count: 1 });
      expect(await operation(queuedOps[1]!.uuid)).to.include({
        status: 3,
        error_code: 404,
        result_message: 'No such entity with sku = C-2',
      });
      expect(await operation(queuedOps[2]!.uuid)).to.include({ status: 1, started_count: 1 });
      expect(await items(queuedOps[0]!.uuid)).to.deep.equal(['C-1']);
      expect(await items(queuedOps[1]!.uuid)).to.deep.equal([]); // written, then rolled back to its savepoint
      expect(await items(queuedOps[2]!.uuid)).to.deep.equal(['C-1']);
    });

    it('should roll back failing operations first, last and one after another in a batch, each alone, keeping the rest', async () => {
      // One savepoint per operation, replaced by the next: a failure right after a failure, and at either end.
      const skus = ['C-2', 'C-1', 'C-2', 'C-2', 'C-1', 'C-2'];
      const queuedOps = [];
      for (const sku of skus) queuedOps.push(await queued(sku));
      const { value, outcomes } = batch(queuedOps.map((q) => q.body));
      let ran = 0;
      await consumer(
        (args) => (ran++, skuOf(args) === 'C-2' ? NoSuchEntityException.singleField('sku', 'C-2') : null),
        true,
      ).handleBatch(value);
      expect(ran).to.equal(skus.length); // each once: the batch was not given up
      expect(outcomes).to.deep.equal(skus.map(() => ['ack']));
      for (const [i, sku] of skus.entries()) {
        const expected = sku === 'C-2' ? { status: 3, error_code: 404 } : { status: 1, started_count: 1 };
        expect(await operation(queuedOps[i]!.uuid), `operation ${i}`).to.include(expected);
        expect(await items(queuedOps[i]!.uuid), `operation ${i}`).to.deep.equal(sku === 'C-2' ? [] : ['C-1']);
      }
    });

    it('should give up the batch on a transient failure and run its operations one at a time, each applied once', async () => {
      const queuedOps = [await queued('C-1'), await queued('C-2')];
      const { value, outcomes } = batch(queuedOps.map((q) => q.body));
      let calls = 0;
      // The batch's second operation fails once (the batch rolls back, the first with it); then all goes well.
      await consumer(() => (++calls === 2 ? new ServiceUnavailableException() : null)).handleBatch(value);
      expect(calls).to.equal(4); // two in the abandoned batch, then one each
      expect(outcomes).to.deep.equal([['ack'], ['ack']]);
      for (const q of queuedOps) expect(await operation(q.uuid)).to.include({ status: 1, started_count: 1 });
      expect(await items(queuedOps[0]!.uuid)).to.deep.equal(['C-1']);
    });

    it('should acknowledge a redelivered completed operation of a batch without running it', async () => {
      const done = await queued('C-1');
      await consumer(() => null).handle(delivery(done.body).value);
      const fresh = await queued('C-2');
      const ran: (string | undefined)[] = [];
      const { value, outcomes } = batch([done.body, fresh.body]);
      await consumer((args) => (ran.push(skuOf(args)), null)).handleBatch(value);
      expect(ran).to.deep.equal(['C-2']);
      expect(outcomes).to.deep.equal([['ack'], ['ack']]);
      expect(await operation(done.uuid)).to.include({ status: 1, started_count: 1 });
      expect(await items(done.uuid)).to.deep.equal(['C-1']);
    });
  });
});
