/**
 * The delivery consumer as an operator runs it (`queue:consumers:start event.delivery`, its own
 * process), SIGKILLed mid-way and started again: every event of a committed request arrives at
 * least once (duplicates carry the same webhook-id), none of a rolled-back one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { PROJECT_ROOT } from '../../../app/bootstrap/paths.js';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { ok } from '../Recommendation/support.js';
import { ADD_ITEMS, WebhookWorld } from '../Webhooks/support.js';
import { ITEMS_ADDED } from './support.js';

const SECRET = `whsec_${Buffer.from('event delivery secret, 32 bytes!').toString('base64')}`;

class DeliveryProcess {
  readonly output: string[] = [];
  private readonly exited: Promise<unknown>;

  constructor(databaseUrl: string) {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, EVENT_LEASE_MS: '1500', EVENT_TIMEOUT_MS: '1000', EVENT_RETRY_BASE_MS: '50', LOG_LEVEL: 'info' };
    delete env.AMQP_URL;
    this.child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'), 'queue:consumers:start', 'event.delivery'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
    this.child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  readonly child: ChildProcess;

  async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect.fail(`timed out waiting for ${what}\n${context()}`);
}

describe('Eventing: a delivery consumer killed mid-way', function () {
  this.timeout(120_000);
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let veto: WebhookReceiver;
  const processes: DeliveryProcess[] = [];

  before(async () => {
    w = await WebhookWorld.start();
    await w.d.products('K-1', 'K-OK', 'K-NO');
    receiver = await WebhookReceiver.start();
    receiver.secret = SECRET;
    veto = await WebhookReceiver.start();
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await receiver?.stop();
    await veto?.stop();
    await w?.stop();
  });

  it('should deliver every committed event at least once and none of a rolled-back request', async () => {
    const subscribed = await request(w.d.http)
      .post('/rest/V1/eventing/eventSubscribe')
      .set('Authorization', `Bearer ${w.adminToken}`)
      .send({ event: { name: ITEMS_ADDED, destination: receiver.url('/events'), secret: SECRET, fields: [{ name: 'recommendation.recommendation_id' }, { name: 'added' }] } });
    expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(200);
    // Requests adding K-NO are vetoed by an after hook once their event is in the outbox: they roll back.
    veto.answer = (call) => {
      const items = (call.body as { recommendation: { items: { sku: string }[] } }).recommendation.items;
      return items.some((item) => item.sku === 'K-NO') ? { json: { op: 'exception', message: 'vetoed' } } : { json: { op: 'success' } };
    };
    await w.subscribe({ webhook_method: ADD_ITEMS, webhook_type: 'after', url: veto.url() });
    // Slow answers, so that the kill lands while deliveries are in flight.
    receiver.answer = () => ({ status: 200, raw: '', delayMs: 150 });

    const committed = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const r = await w.d.recommendation({ recommendation: { items: [{ sku: 'K-1', qty: 1 }] } });
      ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-OK', qty: 1 }] } }));
      committed.add(r.recommendation_id);
      const refused = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'K-NO', qty: 1 }] } });
      expect(refused.status).to.equal(400);
    }
    const outbox = (await w.d.t.app.knex('event_outbox').select('event_uuid')) as { event_uuid: string }[];
    expect(outbox).to.have.length(12);

    const first = new DeliveryProcess(w.d.t.databaseUrl);
    processes.push(first);
    const context = () => processes.map((p) => p.output.join('')).join('\n---\n');
    await waitFor('a few deliveries', () => receiver.received.length >= 3, 60_000, context);
    await first.stop('SIGKILL');
    const second = new DeliveryProcess(w.d.t.databaseUrl);
    processes.push(second);
    await waitFor(
      'every event delivered',
      async () => Number(((await w.d.t.app.knex('event_outbox').where({ status: 'delivered' }).count({ n: '*' })) as { n: number }[])[0]!.n) === 12,
      60_000,
      context,
    );
    await second.stop('SIGTERM');

    const received = receiver.received.map((call) => call.body as { event_id: string; data: { recommendation: { recommendation_id: string }; added: { sku: string }[] } });
    expect(receiver.received.every((call) => call.verified)).to.equal(true);
    expect(new Set(received.map((body) => body.data.recommendation.recommendation_id))).to.deep.equal(committed);
    expect(received.flatMap((body) => body.data.added.map((item) => item.sku))).not.to.include('K-NO');
    expect(new Set(received.map((body) => body.event_id))).to.deep.equal(new Set(outbox.map((row) => row.event_uuid)));
    // Any duplicate (the delivery the kill interrupted) carries the same webhook-id as the first.
    for (const call of receiver.received) expect(call.headers['webhook-id']).to.equal((call.body as { event_id: string }).event_id);
  });
});
