/**
 * Consumers as separate processes, as an operator runs them: two sharing one queue, one SIGKILLed
 * in the middle of a batch and replaced, the broker connection lost and back while they run
 * (consumerProcessFixture.ts: the bulk, and the check that each operation applied once). They are spread over
 * several patients: on the db queue, partitioned by patient, both consumers then get a share
 * (the order per entity is checked in test/framework/queue/DbQueuePartitions.http.test.ts). The broker
 * restart (`rabbitmqctl stop_app`), which stops the shared broker, has a file of its own that runs
 * alone: consumers.brokerRestart.http.test.ts.
 */
import { expect } from 'chai';
import { Dispensary } from '../Recommendation/support.js';
import { TcpProxy } from '../../support/tcpProxy.js';
import { consumerProcessFixture, CREATE, OPERATIONS } from './consumerProcessFixture.js';
import { ConsumerProcess, operationCounts, QUEUE_MODES, waitFor } from './support.js';

// Small batches, so that both surviving consumers get several before the bulk is drained.
const BATCH = 10;

for (const mode of QUEUE_MODES) {
  describe(`Async consumers as processes on the ${mode.name} queue${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
    this.timeout(90_000);
    const f = consumerProcessFixture(mode);
    const { consumers, output, createBulk, expectAppliedOnce, drained, progressed } = f;

    it('should survive a consumer SIGKILLed with a whole bulk in one batch, share the queue between the two replacing it, and apply every operation once', async () => {
      // The first consumer takes the whole bulk as one batch (seconds of work) and dies in it: its
      // transaction never commits, its messages come back (after the lock timeout / from the broker).
      // (Waiting long enough for the broker to deliver the whole bulk into the one batch.)
      const victim = ConsumerProcess.spawn(f.d.t.databaseUrl, {
        ...f.options,
        consumerBatchSize: OPERATIONS,
        consumerBatchWaitMs: 5000,
      });
      consumers.push(victim);
      await victim.ready();
      const uuid = await createBulk('kill');
      expect(await victim.killInBatch(), output()).to.equal(true);
      expect(await operationCounts(f.d.t.app.knex, uuid)).to.include({ complete: 0 });
      const batched = { ...f.options, consumerBatchSize: BATCH };
      consumers.push(
        ConsumerProcess.spawn(f.d.t.databaseUrl, batched),
        ConsumerProcess.spawn(f.d.t.databaseUrl, batched),
      );
      await Promise.all(consumers.slice(1).map((c) => c.ready()));
      await waitFor('the bulk to drain', drained(uuid), 60_000, output);
      await expectAppliedOnce('kill', uuid);
      // SIGTERM lets each survivor finish and exit 0 (and their logs are then read to the end).
      expect(await consumers[1]!.stop('SIGTERM'), output()).to.equal(0);
      expect(await consumers[2]!.stop('SIGTERM'), output()).to.equal(0);
      expect(consumers[1]!.operationsDone() + consumers[2]!.operationsDone(), output()).to.equal(OPERATIONS);
      // Both took part where claims skip locked rows (on SQLite one consumer works at a time: the
      // other stands by for the lease, ConsumerLease).
      if (!f.d.t.databaseUrl.startsWith('sqlite:')) {
        expect(consumers[1]!.operationsDone(), output()).to.be.above(0);
        expect(consumers[2]!.operationsDone(), output()).to.be.above(0);
      }
      const started = (await f.d.t.app
        .knex('magento_operation')
        .where('bulk_uuid', uuid)
        .sum({ n: 'started_count' })
        .first()) as { n: number | string };
      expect(Number(started.n)).to.equal(OPERATIONS); // the killed batch's starts rolled back: each committed once
    });

    it('should let one consumer work at a time on SQLite, the other standing by until the first stops', async function () {
      if (!f.d.t.databaseUrl.startsWith('sqlite:')) return this.skip();
      consumers.push(ConsumerProcess.spawn(f.d.t.databaseUrl, f.options));
      await consumers[0]!.ready();
      consumers.push(ConsumerProcess.spawn(f.d.t.databaseUrl, f.options));
      await consumers[1]!.ready();
      expect(consumers[1]!.output.join(''), output()).to.contain('consumer: standing by');
      expect(consumers[1]!.output.join(''), output()).not.to.contain('consumer: started');
      expect(await consumers[0]!.stop('SIGTERM'), output()).to.equal(0); // gives the lease up
      const uuid = await createBulk('lease');
      await waitFor('the bulk to drain', drained(uuid), 60_000, output);
      await expectAppliedOnce('lease', uuid);
      expect(await consumers[1]!.stop('SIGTERM'), output()).to.equal(0);
      expect(consumers[1]!.operationsDone(), output()).to.equal(OPERATIONS);
    });

    // RabbitMQ only (the db queue's counterpart, the database going away, is the consumer's transient retry).
    if (mode.name === 'amqp')
      it('should keep consuming after the broker connection is cut and restored (consumers reconnect by themselves)', async function () {
        const broker = new URL(f.options.amqpUrl!);
        const proxy = new TcpProxy(broker.hostname, Number(broker.port || 5672));
        const port = await proxy.start();
        try {
          const viaProxy = new URL(f.options.amqpUrl!);
          viaProxy.port = String(port);
          const uuid = await createBulk('cut');
          consumers.push(ConsumerProcess.spawn(f.d.t.databaseUrl, { ...f.options, amqpUrl: viaProxy.toString() }));
          await consumers[0]!.ready();
          await waitFor('the first operations', progressed(uuid, 10), 30_000, output);
          await proxy.cut();
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await proxy.restore();
          await waitFor('the bulk to drain after the broker came back', drained(uuid), 60_000, output);
          await expectAppliedOnce('cut', uuid);
          expect(consumers[0]!.output.join('')).to.contain('reconnecting');
        } finally {
          await proxy.stop();
        }
      });

    // RabbitMQ only (the db queue's counterpart, the database going away, is the consumer's transient retry).
    if (mode.name === 'amqp')
      it('should answer 503 and record nothing while the broker cannot be reached, and accept again when it is back', async function () {
        const broker = new URL(f.options.amqpUrl!);
        const proxy = new TcpProxy(broker.hostname, Number(broker.port || 5672));
        const port = await proxy.start();
        const viaProxy = new URL(f.options.amqpUrl!);
        viaProxy.port = String(port);
        const api = await Dispensary.start({ ...f.options, amqpUrl: viaProxy.toString() });
        try {
          const pid = await api.patient();
          const send = () =>
            api
              .request()
              .post(`/rest/default${CREATE}`)
              .set('Authorization', `Bearer ${api.token}`)
              .send([{ patientId: pid, recommendation: { note: 'down', items: [] } }]);
          expect((await send()).status).to.equal(202);
          await proxy.cut();
          const refused = await send();
          expect(refused.status).to.equal(503);
          expect(refused.body).to.deep.equal({ message: 'The service is temporarily unavailable. Try again later.' });
          const bulks = (await api.t.app.knex('magento_bulk').count({ n: '*' }).first()) as { n: number | string };
          expect(Number(bulks.n)).to.equal(1);
          expect(await api.t.app.knex('magento_operation').count({ n: '*' }).first()).to.satisfy(
            (r: { n: string | number }) => Number(r.n) === 1,
          );
          await proxy.restore();
          expect((await send()).status).to.equal(202);
        } finally {
          await api.stop();
          await proxy.stop();
        }
      });
  });
}
