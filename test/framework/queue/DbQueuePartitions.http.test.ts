/**
 * The partitioned `db` queue (DbQueuePartitions.ts) on the test database: two consumers over many
 * entities take each message once, each entity's messages in publishing order, and never hold
 * messages of one partition at the same time; a consumer that dies holding a batch has its
 * partitions and messages taken over once its lease expires, still in order.
 */
import { expect } from 'chai';
import { Dispensary } from '../../modules/Recommendation/support.js';
import { DbQueueConnection } from '../../../app/framework/queue/DbQueueConnection.js';
import {
  DbQueuePartitions,
  partitionOf,
  QUEUE_PARTITION_TABLE,
} from '../../../app/framework/queue/DbQueuePartitions.js';
import { sleep, type DeliveryBatch } from '../../../app/framework/queue/QueueConnection.js';
import { topology } from '../../../app/framework/queue/Topology.js';
import { runPrefix } from '../../modules/AsynchronousOperations/support.js';

const TOPIC = 'async.operations.test';
const PARTITIONS = 8;
const ENTITIES = 40;
const PER_ENTITY = 15;

interface Body {
  readonly entity: number;
  readonly seq: number;
}

describe('The db queue partitioned by entity', function () {
  this.timeout(60_000);
  let d: Dispensary;

  before(async () => {
    d = await Dispensary.start({ amqpUrl: null });
  });
  after(async () => {
    await d?.stop();
  });

  function connection(prefix: string, lockTimeoutMs: number): { queue: DbQueueConnection; name: string } {
    const names = topology(prefix);
    const queue = new DbQueueConnection(
      d.t.app.knex,
      d.t.app.database.dialect,
      names,
      d.t.app.logger,
      lockTimeoutMs,
      PARTITIONS,
    );
    return { queue, name: [...names.queues.keys()][0]! };
  }

  /** ENTITIES x PER_ENTITY messages, entity-interleaved (as the bench's shared shape), in bulks. */
  async function publishAll(queue: DbQueueConnection): Promise<void> {
    const messages = [];
    for (let seq = 0; seq < PER_ENTITY; seq++)
      for (let entity = 0; entity < ENTITIES; entity++)
        messages.push({ body: JSON.stringify({ entity, seq }), partitionKey: `entityId=${entity}` });
    for (let i = 0; i < messages.length; i += 200) await queue.publish(TOPIC, messages.slice(i, i + 200));
  }

  it('should give each message to one of two consumers once, in order per entity, never one partition to both at once', async () => {
    const { queue, name } = connection(runPrefix(), 5000);
    await publishAll(queue);
    const seen = new Map<number, number[]>();
    /** Partitions whose batch is in a consumer's hands now, and by whom. */
    const inHand = new Map<number, string>();
    const overlaps: string[] = [];
    const handled: Record<string, number> = { a: 0, b: 0 };
    const stop = new AbortController();
    const total = ENTITIES * PER_ENTITY;
    const consumer = (who: string) =>
      queue.consumeBatches(
        name,
        async (batch: DeliveryBatch) => {
          const bodies = batch.deliveries.map((delivery) => JSON.parse(delivery.body) as Body);
          const parts = new Set(bodies.map((body) => partitionOf(`entityId=${body.entity}`, PARTITIONS)));
          for (const p of parts) {
            const other = inHand.get(p);
            if (other && other !== who) overlaps.push(`partition ${p}: ${who} while ${other}`);
            inHand.set(p, who);
          }
          await sleep(5); // work takes time: the other consumer claims meanwhile
          for (const body of bodies) seen.set(body.entity, [...(seen.get(body.entity) ?? []), body.seq]);
          handled[who]! += bodies.length;
          await batch.ack(batch.deliveries);
          for (const p of parts) if (inHand.get(p) === who) inHand.delete(p);
          if (handled.a! + handled.b! >= total) stop.abort();
        },
        { signal: stop.signal, batchSize: 10, batchWaitMs: 0 },
      );
    await Promise.all([consumer('a'), consumer('b')]);
    expect(overlaps).to.deep.equal([]);
    expect(handled.a! + handled.b!).to.equal(total);
    for (let entity = 0; entity < ENTITIES; entity++)
      expect(seen.get(entity), `entity ${entity}`).to.deep.equal(Array.from({ length: PER_ENTITY }, (_, i) => i));
    // Both took part: the partitions were shared out between them.
    expect(handled.a).to.be.above(0);
    expect(handled.b).to.be.above(0);
    expect((await queue.depth(name)).ready).to.equal(0);
    // Stopping released every partition.
    const owned = await d.t.app.knex(QUEUE_PARTITION_TABLE).where('queue_name', name).whereNotNull('owner');
    expect(owned).to.deep.equal([]);
  });

  it("should let a consumer take over a dead consumer's partitions and messages after the lease, in order", async () => {
    const lockTimeoutMs = 600;
    const { queue, name } = connection(runPrefix(), lockTimeoutMs);
    await publishAll(queue);
    // The first consumer takes one batch and never finishes it (as a process killed in the middle).
    const dead = new AbortController();
    let held: Body[] = [];
    let hang: () => void = () => undefined;
    const hung = new Promise<void>((resolve) => (hang = resolve));
    const first = queue.consumeBatches(
      name,
      async (batch) => {
        held = batch.deliveries.map((delivery) => JSON.parse(delivery.body) as Body);
        await hung;
      },
      { signal: dead.signal, batchSize: 30, batchWaitMs: 0 },
    );
    while (held.length === 0) await sleep(20);
    const stolen = (await d.t.app.knex(QUEUE_PARTITION_TABLE).where('queue_name', name).whereNotNull('owner')).length;
    expect(stolen).to.equal(PARTITIONS); // alone, it leased them all
    // The survivor: every message once more or for the first time, each entity in order.
    const seen = new Map<number, number[]>();
    const redelivered: Body[] = [];
    const stop = new AbortController();
    let count = 0;
    const survivor = queue.consumeBatches(
      name,
      async (batch) => {
        for (const delivery of batch.deliveries) {
          const body = JSON.parse(delivery.body) as Body;
          if (delivery.redelivered) redelivered.push(body);
          seen.set(body.entity, [...(seen.get(body.entity) ?? []), body.seq]);
        }
        await batch.ack(batch.deliveries);
        count += batch.deliveries.length;
        if (count >= ENTITIES * PER_ENTITY) stop.abort();
      },
      { signal: stop.signal, batchSize: 25, batchWaitMs: 0 },
    );
    await survivor;
    for (let entity = 0; entity < ENTITIES; entity++)
      expect(seen.get(entity), `entity ${entity}`).to.deep.equal(Array.from({ length: PER_ENTITY }, (_, i) => i));
    // The dead consumer's batch came back to the survivor.
    expect(redelivered.map((b) => `${b.entity}:${b.seq}`).sort()).to.deep.equal(
      held.map((b) => `${b.entity}:${b.seq}`).sort(),
    );
    // The dead one's late acknowledgement changes nothing: its rows were taken under another claim.
    dead.abort();
    hang();
    await first;
    expect((await queue.depth(name)).ready).to.equal(0);
  });

  it('should give a consumer that joins its share within a member check, not a whole lease renewal later', async () => {
    const name = `${runPrefix()}partitions`;
    const logger = d.t.app.logger;
    // A lease of 30 s: renewals every second, so only the member check can explain a quick handover.
    const first = new DbQueuePartitions(d.t.app.knex, name, PARTITIONS, 30_000, logger);
    const second = new DbQueuePartitions(d.t.app.knex, name, PARTITIONS, 30_000, logger);
    try {
      await first.rebalance(true);
      expect(first.partitions).to.have.length(PARTITIONS); // alone, it leases them all
      await second.rebalance(true);
      expect(second.partitions).to.deep.equal([]); // all leased: it waits for the first to release
      // Between the first one's batches, a member check later (200 ms), not its renewal (1 s).
      await sleep(300);
      await first.rebalance();
      expect(first.partitions).to.have.length(PARTITIONS / 2);
      await second.rebalance(true);
      expect(second.partitions).to.have.length(PARTITIONS / 2);
      expect([...first.partitions, ...second.partitions].sort((a, b) => a - b)).to.deep.equal(
        Array.from({ length: PARTITIONS }, (_, p) => p),
      );
      // With the membership unchanged, a check between renewals moves nothing.
      await sleep(300);
      await first.rebalance();
      expect(first.partitions).to.have.length(PARTITIONS / 2);
    } finally {
      await first.leave();
      await second.leave();
    }
  });

  it("should key each queued Add Items operation by its recommendation, the route's first path parameter", async () => {
    await d.products('PK-1');
    const [a, b] = [await d.recommendation(), await d.recommendation()];
    const res = await d
      .request()
      .post('/rest/default/async/bulk/V1/dispensary/recommendation/byRecommendationId/item')
      .set('Authorization', `Bearer ${d.token}`)
      .send(
        [a, b, a].map((rec) => ({
          recommendationId: rec.recommendation_id,
          recommendation: { items: [{ sku: 'PK-1', qty: 1 }] },
        })),
      );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const rows = (await d.t.app
      .knex('queue_message')
      .whereNotNull('partition_no')
      .orderBy('id', 'desc')
      .limit(3)
      .select('partition_no')) as { partition_no: number }[];
    const count = d.t.app.config.dbQueuePartitions;
    expect(rows.reverse().map((row) => Number(row.partition_no))).to.deep.equal(
      [a, b, a].map((rec) => partitionOf(`recommendationId=${rec.recommendation_id}`, count)),
    );
  });

  it('should leave messages without a partition key to any consumer, as before', async () => {
    const { queue, name } = connection(runPrefix(), 5000);
    await queue.publish(TOPIC, ['{"k":1}', { body: '{"k":2}', partitionKey: null }]);
    const bodies: string[] = [];
    const stop = new AbortController();
    await queue.consumeBatches(
      name,
      async (batch) => {
        bodies.push(...batch.deliveries.map((delivery) => delivery.body));
        await batch.ack(batch.deliveries);
        if (bodies.length >= 2) stop.abort();
      },
      { signal: stop.signal, batchSize: 10, batchWaitMs: 0 },
    );
    expect(bodies).to.deep.equal(['{"k":1}', '{"k":2}']);
  });
});
