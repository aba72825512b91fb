/**
 * `npm run bench -- --scenario webhooks [--smoke]` (issue 19):
 *
 *  1. the latency one before-webhook adds to Add Items: the service in this process on a loopback
 *     port, one connection, `requests` sequential Add Items requests without a hook, then as many
 *     with one required before-hook whose receiver (node:http on loopback, this process) answers
 *     `{"op": "success"}`; the two alternate in blocks so drift on a shared machine hits both;
 *  2. the event delivery rate: `events` committed events in the outbox, delivered by 1 and then
 *     2 `queue:consumers:start event.delivery` processes to a loopback receiver answering 204.
 *
 * Add Items sends a sku already in the recommendation after the first request (ignored: the
 * request reads, validates and answers, and writes nothing), so the figure is the hook's cost,
 * not the table's growth.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Application } from '../../app/bootstrap/Application.js';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { allStoresToken, createBenchDatabase } from './seed.js';
import { round } from './stats.js';

export interface WebhooksBenchOptions {
  readonly dir: string;
  readonly requests: number;
  readonly events: number;
  readonly log: (line: string) => void;
}

export interface WebhooksBenchReport {
  readonly database: string;
  readonly loadAverage: number[];
  readonly addItems: { readonly withoutHook: Latency; readonly withHook: Latency; readonly addedP50Ms: number };
  readonly delivery: { consumers: number; events: number; seconds: number; perSecond: number }[];
}

interface Latency {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

const SECRET = `whsec_${Buffer.from('benchmark secret of 32 bytes!!!!').toString('base64')}`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50), 3),
    p90: round(percentile(sorted, 90), 3),
    p99: round(percentile(sorted, 99), 3),
  };
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function call(
  port: number,
  method: string,
  url: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export async function runWebhooksBench(options: WebhooksBenchOptions): Promise<WebhooksBenchReport> {
  const { log } = options;
  const database = await createBenchDatabase(options.dir, 'webhooks');
  const settings = { databaseUrl: database.url };
  const app = await Application.create({ ...settings });
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const hook = req.url === '/hook';
      res.writeHead(hook ? 200 : 204, { 'content-type': 'application/json' });
      res.end(hook ? '{"op":"success"}' : '');
    });
  });
  const server = app.http().listen(0, '127.0.0.1');
  try {
    await app.setupUpgrade();
    const token = await allStoresToken(settings);
    if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    const receiverPort = await listen(receiver);

    for (const sku of ['WB-1', 'WB-2']) {
      const saved = await call(port, 'POST', '/rest/all/V1/products', token, {
        product: {
          sku,
          name: sku,
          price: 1,
          status: 1,
          type_id: 'simple',
          attribute_set_id: 4,
          extension_attributes: { stock_item: { qty: 100, is_in_stock: true } },
        },
      });
      if (saved.status !== 200) throw new Error(`product: ${JSON.stringify(saved.body)}`);
    }
    const patient = await call(port, 'POST', '/rest/default/V1/dispensary/patient', token, {
      patient: { firstname: 'Bench', lastname: 'Hooks', email: 'bench@example.com' },
    });
    const patientId = (patient.body as { patient_id: number }).patient_id;
    const created = await call(port, 'POST', `/rest/default/V1/dispensary/patient/${patientId}/recommendation`, token, {
      recommendation: { items: [{ sku: 'WB-1', qty: 1 }] },
    });
    const recommendationId = (created.body as { recommendation_id: string }).recommendation_id;
    const add = async () => {
      const started = process.hrtime.bigint();
      const res = await call(
        port,
        'POST',
        `/rest/default/V1/dispensary/recommendation/${recommendationId}/item`,
        token,
        { recommendation: { items: [{ sku: 'WB-2', qty: 1 }] } },
      );
      if (res.status !== 200) throw new Error(`Add Items: ${res.status} ${JSON.stringify(res.body)}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const webhook = {
      webhook_method: 'plugin.dispensary.recommendation.api.recommendation_item_management.add_items',
      webhook_type: 'before',
      batch_name: 'bench',
      hook_name: 'success',
      url: `http://127.0.0.1:${receiverPort}/hook`,
      required: true,
      secret: SECRET,
    };
    for (let i = 0; i < 50; i++) await add(); // warm-up
    const without: number[] = [];
    const withHook: number[] = [];
    const block = Math.max(10, Math.floor(options.requests / 10));
    for (let done = 0; done < options.requests; done += block) {
      for (let i = 0; i < block; i++) without.push(await add());
      if ((await call(port, 'POST', '/rest/all/V1/webhooks/subscribe', token, { webhook })).status !== 200)
        throw new Error('subscribe failed');
      for (let i = 0; i < block; i++) withHook.push(await add());
      await call(port, 'POST', '/rest/all/V1/webhooks/unsubscribe', token, { webhook });
    }
    const addItems = { withoutHook: latency(without), withHook: latency(withHook), addedP50Ms: 0 };
    addItems.addedP50Ms = round(addItems.withHook.p50 - addItems.withoutHook.p50, 3);
    log(
      `Add Items p50 ${addItems.withoutHook.p50} ms without a hook, ${addItems.withHook.p50} ms with one (+${addItems.addedP50Ms} ms)`,
    );

    // Events: one subscription, `events` committed Add Items events (a new sku each time would need products; the same request records an event each time).
    const subscribed = await call(port, 'POST', '/rest/all/V1/eventing/eventSubscribe', token, {
      event: {
        name: 'observer.dispensary_recommendation_items_add_after',
        destination: `http://127.0.0.1:${receiverPort}/events`,
        secret: SECRET,
        fields: [{ name: 'recommendation.recommendation_id' }],
      },
    });
    if (subscribed.status !== 200) throw new Error(`eventSubscribe: ${JSON.stringify(subscribed.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // other processes' subscription caches
    for (let i = 0; i < options.events; i++) await add();
    const delivery: WebhooksBenchReport['delivery'] = [];
    for (const consumers of [1, 2]) {
      await app
        .knex('event_outbox')
        .update({ status: 'pending', attempts: 0, lease_until: 0, next_attempt_at: 0, delivered_at: null });
      const started = Date.now();
      const children = Array.from({ length: consumers }, () =>
        spawn(
          process.execPath,
          [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'), 'queue:consumers:start', 'event.delivery'],
          {
            cwd: PROJECT_ROOT,
            env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
            stdio: 'ignore',
          },
        ),
      );
      try {
        for (;;) {
          const row = (await app.knex('event_outbox').whereNot({ status: 'delivered' }).count({ n: '*' })) as {
            n: number | string;
          }[];
          if (Number(row[0]!.n) === 0) break;
          if (Date.now() - started > 600_000) throw new Error('delivery did not finish in 10 minutes');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        for (const child of children) child.kill('SIGTERM');
      }
      // From spawn to the last delivery: includes each consumer's start-up (about a second).
      const seconds = (Date.now() - started) / 1000;
      delivery.push({
        consumers,
        events: options.events,
        seconds: round(seconds, 2),
        perSecond: round(options.events / seconds, 1),
      });
      log(
        `${consumers} consumer(s): ${options.events} events in ${round(seconds, 2)} s (${round(options.events / seconds, 1)}/s, start-up included)`,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { database: database.dialect, loadAverage: os.loadavg().map((v) => round(v, 2)), addItems, delivery };
  } finally {
    server.close();
    receiver.close();
    await app.close();
    await database.release();
  }
}

export function webhooksMarkdown(report: WebhooksBenchReport): string {
  const a = report.addItems;
  return [
    `### Webhooks and events (${report.database}; load average at the end ${report.loadAverage.join(', ')})`,
    '',
    '| Add Items, one connection | p50 ms | p90 ms | p99 ms |',
    '|---|---|---|---|',
    `| no hook | ${a.withoutHook.p50} | ${a.withoutHook.p90} | ${a.withoutHook.p99} |`,
    `| one required before-hook (loopback, answers success) | ${a.withHook.p50} | ${a.withHook.p90} | ${a.withHook.p99} |`,
    '',
    `Added by the hook at p50: ${a.addedP50Ms} ms.`,
    '',
    '| delivery consumers | events | seconds (start-up included) | events/s |',
    '|---|---|---|---|',
    ...report.delivery.map((d) => `| ${d.consumers} | ${d.events} | ${d.seconds} | ${d.perSecond} |`),
    '',
  ].join('\n');
}
