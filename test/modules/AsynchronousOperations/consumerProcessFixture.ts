/**
 * What the consumer-process suites share (consumers.http.test.ts, and
 * consumers.brokerRestart.http.test.ts, the one case that stops the shared broker and so runs
 * alone): a Dispensary on one queue mode with products and patients, the consumer processes of the
 * current test (SIGKILLed after it), a bulk of recommendation creations, and the check that each
 * was applied once. The operations create recommendations (not idempotent): one applied twice
 * shows as two recommendations with the same note, one lost as a missing note.
 */
import { expect } from 'chai';
import { Dispensary } from '../Recommendation/support.js';
import { ConsumerProcess, deleteTopology, operationCounts, type QueueMode } from './support.js';

export const CREATE = '/async/bulk/V1/dispensary/patient/byPatientId/recommendation';
// Enough work that a consumer asleep in the db queue's 200 ms idle poll still finds some: with
// ~1 ms per operation on SQLite, 120 were once all taken by the other consumer in that time, and
// batched consumers drained 480 in well under a second.
export const OPERATIONS = 960;
// Items per operation: enough work that the batch of the whole bulk lasts long enough to be killed in.
const SKUS = Array.from({ length: 4 }, (_, i) => `P-${i + 1}`);
// Operations go to patient i % PATIENTS: enough entities for both consumers to get partitions.
const PATIENTS = 12;

export interface ConsumerProcessFixture {
  readonly d: Dispensary;
  readonly options: ReturnType<QueueMode['options']>;
  /** The current test's consumer processes: SIGKILLed after it. */
  readonly consumers: ConsumerProcess[];
  /** The consumers' output, for failure messages. */
  output(): string;
  /** Queues a bulk of OPERATIONS recommendation creations, notes `<tag>-<i>`; answers its uuid. */
  createBulk(tag: string): Promise<string>;
  /** Every operation of the bulk complete, each recommendation created once. */
  expectAppliedOnce(tag: string, uuid: string): Promise<void>;
  drained(uuid: string): () => Promise<boolean>;
  progressed(uuid: string, n: number): () => Promise<boolean>;
}

/** Registers the suite's hooks (in the describe it is called from) and answers the fixture. */
export function consumerProcessFixture(mode: QueueMode): ConsumerProcessFixture {
  let d: Dispensary;
  let options: ReturnType<QueueMode['options']>;
  const patientIds: number[] = [];
  const consumers: ConsumerProcess[] = [];

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
    if (mode.name === 'amqp' && options) await deleteTopology(options.amqpUrl!, options.queuePrefix);
  });

  const complete = async (uuid: string) => (await operationCounts(d.t.app.knex, uuid)).complete;
  return {
    get d() {
      return d;
    },
    get options() {
      return options;
    },
    consumers,
    output: () =>
      consumers
        .map((c, i) => `--- consumer ${i} (${c.output.join('').length} chars)\n${c.output.join('').slice(-3000)}`)
        .join('\n'),
    async createBulk(tag) {
      const elements = Array.from({ length: OPERATIONS }, (_, i) => ({
        patientId: patientIds[i % PATIENTS],
        recommendation: { note: `${tag}-${i}`, items: SKUS },
      }));
      const res = await d
        .request()
        .post(`/rest/default${CREATE}`)
        .set('Authorization', `Bearer ${d.token}`)
        .send(elements);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.errors).to.equal(false);
      return res.body.bulk_uuid as string;
    },
    async expectAppliedOnce(tag, uuid) {
      const notes = (
        (await d.t.app.knex('dispensary_recommendation').where('note', 'like', `${tag}-%`).select('note')) as {
          note: string;
        }[]
      ).map((r) => r.note);
      const expected = Array.from({ length: OPERATIONS }, (_, i) => `${tag}-${i}`);
      expect([...notes].sort()).to.deep.equal([...expected].sort()); // none missing, none twice
      expect(await operationCounts(d.t.app.knex, uuid)).to.deep.equal({
        open: 0,
        complete: OPERATIONS,
        failed: 0,
        total: OPERATIONS,
      });
    },
    drained: (uuid) => async () => (await complete(uuid)) === OPERATIONS,
    progressed: (uuid, n) => async () => (await complete(uuid)) >= n,
  };
}
