/**
 * Consumers as separate processes, as an operator runs them: two sharing one queue, one SIGKILLed
 * in the middle of a bulk and replaced, the broker connection lost and back while they run. The
 * operations create recommendations (not idempotent), so an operation applied twice would show
 * as two recommendations with the same note, and one lost as a missing note.
 */
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import request from 'supertest';
import { Dispensary } from '../Recommendation/support.js';
import { TcpProxy } from '../../support/tcpProxy.js';
import { ConsumerProcess, deleteTopology, operationCounts, QUEUE_MODES, waitFor } from './support.js';

const CREATE = '/async/bulk/V1/dispensary/patient/byPatientId/recommendation';
// Enough work that a consumer asleep in the db queue's 200 ms idle poll still finds some: with
// ~1 ms per operation on SQLite, 120 were once all taken by the other consumer in that time.
const OPERATIONS = 480;

for (const mode of QUEUE_MODES) {
  describe(`Async consumers as processes on the ${mode.name} queue${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
    this.timeout(90_000);
    let d: Dispensary;
    let options: ReturnType<(typeof QUEUE_MODES)[number]['options']>;
    let patientId: number;
    const consumers: ConsumerProcess[] = [];
    const output = () => consumers.map((c, i) => `--- consumer ${i} (${c.output.join("").length} chars)\n${c.output.join("").slice(-3000)}`).join("\n");

    before(async function () {
      if (mode.unavailable) return this.skip();
      options = mode.options();
      d = await Dispensary.start(options);
      await d.products('P-1');
      patientId = await d.patient();
    });
    afterEach(async () => {
      await Promise.all(consumers.splice(0).map((c) => c.stop('SIGKILL')));
    });
    after(async () => {
      await d?.stop();
      if (mode.name === 'amqp' && options) await deleteTopology(options.amqpUrl!, options.queuePrefix);
    });

    /** Queues a bulk of OPERATIONS recommendation creations, notes `<tag>-<i>`. */
    async function createBulk(tag: string): Promise<string> {
      const elements = Array.from({ length: OPERATIONS }, (_, i) => ({ patientId, recommendation: { note: `${tag}-${i}`, items: ['P-1'] } }));
      const res = await request(d.http).post(`/rest/default${CREATE}`).set('Authorization', `Bearer ${d.token}`).send(elements);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.errors).to.equal(false);
      return res.body.bulk_uuid as string;
    }

    async function expectAppliedOnce(tag: string, uuid: string): Promise<void> {
      const notes = ((await d.t.app.knex('dispensary_recommendation').where('note', 'like', `${tag}-%`).select('note')) as { note: string }[]).map((r) => r.note);
      const expected = Array.from({ length: OPERATIONS }, (_, i) => `${tag}-${i}`);
      expect([...notes].sort()).to.deep.equal([...expected].sort()); // none missing, none twice
      expect(await operationCounts(d.t.app.knex, uuid)).to.deep.equal({ open: 0, complete: OPERATIONS, failed: 0, total: OPERATIONS });
    }

    const drained = (uuid: string) => async () => (await operationCounts(d.t.app.knex, uuid)).complete === OPERATIONS;
    const progressed = (uuid: string, n: number) => async () => (await operationCounts(d.t.app.knex, uuid)).complete >= n;

    it('should share one queue between two consumers, survive one SIGKILLed mid-bulk, and apply every operation once', async () => {
      consumers.push(ConsumerProcess.spawn(d.t.databaseUrl, options), ConsumerProcess.spawn(d.t.databaseUrl, options));
      await Promise.all(consumers.map((c) => c.ready()));
      const uuid = await createBulk('kill');
      // Both consumers of the shared queue take part before one is killed.
      const bothWorking = async () => consumers[0]!.operationsDone() > 0 && consumers[1]!.operationsDone() > 0;
      await waitFor('both consumers to run operations', bothWorking, 30_000, output);
      await consumers[0]!.stop('SIGKILL');
      consumers.push(ConsumerProcess.spawn(d.t.databaseUrl, options));
      await consumers[2]!.ready();
      await waitFor('the bulk to drain', drained(uuid), 60_000, output);
      await expectAppliedOnce('kill', uuid);
      // Both survivors took part, and SIGTERM lets each finish and exit 0.
      expect(await consumers[1]!.stop('SIGTERM'), output()).to.equal(0);
      expect(await consumers[2]!.stop('SIGTERM'), output()).to.equal(0);
      expect(consumers[1]!.output.join('')).to.match(/processed [1-9]\d* message/);
      const started = (await d.t.app.knex('magento_operation').where('bulk_uuid', uuid).sum({ n: 'started_count' }).first()) as { n: number | string };
      expect(Number(started.n)).to.equal(OPERATIONS); // rolled-back starts do not count: each committed once
    });

    // RabbitMQ only (the db queue's counterpart, the database going away, is the consumer's transient retry).
    if (mode.name === 'amqp') it('should keep consuming after the broker connection is cut and restored (consumers reconnect by themselves)', async function () {
      const broker = new URL(options.amqpUrl!);
      const proxy = new TcpProxy(broker.hostname, Number(broker.port || 5672));
      const port = await proxy.start();
      try {
        const viaProxy = new URL(options.amqpUrl!);
        viaProxy.port = String(port);
        const uuid = await createBulk('cut');
        consumers.push(ConsumerProcess.spawn(d.t.databaseUrl, { ...options, amqpUrl: viaProxy.toString() }));
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
    if (mode.name === 'amqp') it('should really survive `rabbitmqctl stop_app` / `start_app` (only with TEST_AMQP_RESTART=1: it stops the shared broker)', async function () {
      if (process.env.TEST_AMQP_RESTART !== '1') return this.skip();
      const uuid = await createBulk('restart');
      consumers.push(ConsumerProcess.spawn(d.t.databaseUrl, options), ConsumerProcess.spawn(d.t.databaseUrl, options));
      await Promise.all(consumers.map((c) => c.ready()));
      await waitFor('the first operations', progressed(uuid, 10), 30_000, output);
      execFileSync('rabbitmqctl', ['stop_app'], { stdio: 'ignore', timeout: 60_000 });
      try {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } finally {
        execFileSync('rabbitmqctl', ['start_app'], { stdio: 'ignore', timeout: 60_000 });
        execFileSync('rabbitmqctl', ['await_startup'], { stdio: 'ignore', timeout: 60_000 });
      }
      await waitFor('the bulk to drain after the restart', drained(uuid), 60_000, output);
      await expectAppliedOnce('restart', uuid);
    });

    // RabbitMQ only (the db queue's counterpart, the database going away, is the consumer's transient retry).
    if (mode.name === 'amqp') it('should answer 503 and record nothing while the broker cannot be reached, and accept again when it is back', async function () {
      const broker = new URL(options.amqpUrl!);
      const proxy = new TcpProxy(broker.hostname, Number(broker.port || 5672));
      const port = await proxy.start();
      const viaProxy = new URL(options.amqpUrl!);
      viaProxy.port = String(port);
      const api = await Dispensary.start({ ...options, amqpUrl: viaProxy.toString() });
      try {
        const pid = await api.patient();
        const send = () =>
          request(api.http)
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
        expect(await api.t.app.knex('magento_operation').count({ n: '*' }).first()).to.satisfy((r: { n: string | number }) => Number(r.n) === 1);
        await proxy.restore();
        expect((await send()).status).to.equal(202);
      } finally {
        await api.stop();
        await proxy.stop();
      }
    });
  });
}
