// npm test: run alone (with TEST_AMQP_RESTART it stops and restarts the shared RabbitMQ broker)
/**
 * Consumers as processes through a real broker restart (`rabbitmqctl stop_app` / `start_app`): the
 * one test of consumers.http.test.ts that stops the shared broker, in a file of its own so that only
 * it runs alone and the others run beside the rest of the suite. The operations create
 * recommendations (not idempotent): one applied twice would show as two recommendations with the
 * same note, one lost as a missing note.
 */
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { Dispensary } from '../Recommendation/support.js';
import { ConsumerProcess, deleteTopology, operationCounts, QUEUE_MODES, waitFor } from './support.js';

const CREATE = '/async/bulk/V1/dispensary/patient/byPatientId/recommendation';
// As in consumers.http.test.ts: enough work to be in the middle of it when the broker stops.
const OPERATIONS = 960;
const SKUS = Array.from({ length: 4 }, (_, i) => `P-${i + 1}`);
const PATIENTS = 12;
const mode = QUEUE_MODES.find((m) => m.name === 'amqp')!;

describe(`Async consumers as processes on the ${mode.name} queue, the broker restarted${mode.unavailable ? ` (pending: ${mode.unavailable})` : ''}`, function () {
  this.timeout(90_000);
  let d: Dispensary;
  let options: ReturnType<(typeof QUEUE_MODES)[number]['options']>;
  const patientIds: number[] = [];
  const consumers: ConsumerProcess[] = [];
  const output = () =>
    consumers
      .map((c, i) => `--- consumer ${i} (${c.output.join('').length} chars)\n${c.output.join('').slice(-3000)}`)
      .join('\n');

  before(async function () {
    if (mode.unavailable) return this.skip();
    options = mode.options();
    d = await Dispensary.start(options);
    await d.products(...SKUS);
    for (let p = 0; p < PATIENTS; p++) patientIds.push(await d.patient());
  });
  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.stop('SIGKILL')));
  });
  after(async () => {
    await d?.stop();
    if (options) await deleteTopology(options.amqpUrl!, options.queuePrefix);
  });

  // The db queue's counterpart, the database going away, is the consumer's transient retry.
  // With the default batch size: a batch in hand when the broker stops either committed (its
  // redelivered messages are then acknowledged without running) or did not (they run once).
  it('should really survive `rabbitmqctl stop_app` / `start_app` (only with TEST_AMQP_RESTART=1: it stops the shared broker)', async function () {
    if (process.env.TEST_AMQP_RESTART !== '1') return this.skip();
    const elements = Array.from({ length: OPERATIONS }, (_, i) => ({
      patientId: patientIds[i % PATIENTS],
      recommendation: { note: `restart-${i}`, items: SKUS },
    }));
    const res = await d
      .request()
      .post(`/rest/default${CREATE}`)
      .set('Authorization', `Bearer ${d.token}`)
      .send(elements);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body.errors).to.equal(false);
    const uuid = res.body.bulk_uuid as string;

    consumers.push(ConsumerProcess.spawn(d.t.databaseUrl, options), ConsumerProcess.spawn(d.t.databaseUrl, options));
    await Promise.all(consumers.map((c) => c.ready()));
    await waitFor(
      'the first operations',
      async () => (await operationCounts(d.t.app.knex, uuid)).complete >= 10,
      30_000,
      output,
    );
    execFileSync('rabbitmqctl', ['stop_app'], { stdio: 'ignore', timeout: 60_000 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      execFileSync('rabbitmqctl', ['start_app'], { stdio: 'ignore', timeout: 60_000 });
      execFileSync('rabbitmqctl', ['await_startup'], { stdio: 'ignore', timeout: 60_000 });
    }
    await waitFor(
      'the bulk to drain after the restart',
      async () => (await operationCounts(d.t.app.knex, uuid)).complete === OPERATIONS,
      60_000,
      output,
    );

    // Applied once: none missing, none twice.
    const notes = (
      (await d.t.app.knex('dispensary_recommendation').where('note', 'like', 'restart-%').select('note')) as {
        note: string;
      }[]
    ).map((r) => r.note);
    const expected = Array.from({ length: OPERATIONS }, (_, i) => `restart-${i}`);
    expect([...notes].sort()).to.deep.equal([...expected].sort());
    expect(await operationCounts(d.t.app.knex, uuid)).to.deep.equal({
      open: 0,
      complete: OPERATIONS,
      failed: 0,
      total: OPERATIONS,
    });
  });
});
