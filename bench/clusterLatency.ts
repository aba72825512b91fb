/**
 * `npm run bench:cluster` (root, network namespaces): Add Items on the cluster's api1, on
 * PostgreSQL (CLUSTER_DATABASE_URL), first on the unimpaired data link, then with 50 ms more
 * latency on it (the data host's forwarder holds each answer of the database; this kernel has no
 * netem). Prints throughput and latency percentiles; asserts nothing.
 */
import 'reflect-metadata';
import { Cluster } from '../test/cluster/harness/Cluster.js';
import { createPatient, createProducts, createRecommendation } from '../test/cluster/harness/fixtures.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const RECOMMENDATIONS = 40;
const SKUS = Array.from({ length: Math.ceil((2 * REQUESTS) / RECOMMENDATIONS) }, (_, i) => `BENCH-${i}`);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const cluster = await Cluster.start({ run: ['api1'] });
  try {
    const token = await cluster.integrationToken('bench');
    await createProducts(cluster, 'api1', token, SKUS);
    const patientId = await createPatient(cluster, 'api1', token);
    const ids: string[] = [];
    for (let i = 0; i < RECOMMENDATIONS; i++)
      ids.push(
        (
          (await createRecommendation(cluster, 'api1', token, patientId, [SKUS[0]!])).body as {
            recommendation_id: string;
          }
        ).recommendation_id,
      );
    let offset = 1;
    console.log(
      `Add Items on api1 (PostgreSQL through the data link), ${REQUESTS} requests, ${CONCURRENCY} at once, one new item each`,
    );
    for (const delayMs of [0, 50]) {
      cluster.forwarders.get('database')!.delayMs = delayMs;
      const latencies: number[] = [];
      let failures = 0;
      let next = 0;
      const first = offset;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < REQUESTS; i = next++) {
            const id = ids[i % RECOMMENDATIONS]!;
            const sku = SKUS[(first + Math.floor(i / RECOMMENDATIONS)) % SKUS.length]!;
            const answer = await cluster.call('api1', 'POST', `/rest/default/V1/dispensary/recommendation/${id}/item`, {
              token,
              body: { recommendation: { items: [{ sku, qty: 1 }] } },
            });
            if (answer.status === 200) latencies.push(answer.ms);
            else failures++;
          }
        }),
      );
      offset += Math.ceil(REQUESTS / RECOMMENDATIONS);
      const seconds = (performance.now() - started) / 1000;
      const sorted = latencies.sort((a, b) => a - b);
      console.log(
        `  +${String(delayMs).padStart(2)} ms on the database link: ${(latencies.length / seconds).toFixed(1)} req/s, ` +
          `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, failures ${failures}`,
      );
    }
  } finally {
    await cluster.stop();
  }
}

await main();
