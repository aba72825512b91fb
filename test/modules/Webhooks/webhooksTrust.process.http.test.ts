/**
 * Issue 25, as an operator runs the service (`node dist/app/bin/server.js`): hostile hook answers
 * once ended the process (an uncaught exception in the metrics code, from a polluted prototype)
 * and a regex rule with catastrophic backtracking stopped its event loop. The server must stay up
 * and answer: every hostile answer fails its hook, and a rule `/^(a+)+$/` is decided on a
 * 64-character sku (RE2: linear time). Requests to the server carry an abort signal so that a
 * blocked server fails the test instead of hanging it.
 */
import { expect } from 'chai';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { freePort, ServerProcess } from '../../support/serverProcess.js';
import { type Recommendation } from '../Recommendation/support.js';
import { WebhookWorld } from './support.js';
import { HOSTILE_ANSWERS } from './hostileAnswers.js';

const SECRET = `whsec_${Buffer.from('server process secret, 32 bytes!').toString('base64')}`;
/** Not a timing assertion: how long a request may take before the test calls the server blocked. */
const BLOCKED_AFTER_MS = 15_000;

describe('Webhooks: hostile receivers and rules cannot stop the server process (issue 25)', function () {
  this.timeout(120_000);
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let server: ServerProcess;
  let r: Recommendation;

  before(async () => {
    w = await WebhookWorld.start();
    await w.d.products('P-1', 'P-2');
    receiver = await WebhookReceiver.start();
    receiver.secret = SECRET;
    r = await w.d.recommendation({ recommendation: { items: [{ sku: 'P-1', qty: 1 }] } });
  });
  after(async () => {
    await receiver?.stop();
    await w?.stop();
  });
  // A server process of its own for each test: one that a test ended or blocked proves nothing about the next.
  beforeEach(async () => {
    server = ServerProcess.spawn(w.d.t.databaseUrl, await freePort());
    await server.ready();
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    await w.clear();
  });

  /** Add Items on the server process (the admin token: a global one). */
  const add = async (sku: string) => {
    const res = await fetch(`${server.url}/rest/default/V1/dispensary/recommendation/${r.recommendation_id}/item`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.d.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ recommendation: { items: [{ sku, qty: 1 }] } }),
      signal: AbortSignal.timeout(BLOCKED_AFTER_MS),
    });
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
  };
  const expectServing = async () => {
    expect(server.child.exitCode, server.output.join('')).to.equal(null);
    const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(BLOCKED_AFTER_MS) });
    expect(health.status).to.equal(200);
  };
  /** The server process reads subscriptions again within a second: waits until it calls the receiver. */
  const calls = (path: string) => receiver.received.filter((call) => call.path === path);
  const untilCalled = async (sku: string, path: string) => {
    for (let attempt = 0; attempt < 100 && calls(path).length === 0; attempt++) {
      await add(sku);
      if (calls(path).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(calls(path), 'the server process called the hook').to.have.length.greaterThan(0);
  };

  it('should stay up and answer JSON after every hostile answer, a required hook failing with its fallback message', async () => {
    receiver.answer = () => HOSTILE_ANSWERS[0]![1];
    await w.subscribe({
      url: receiver.url(),
      secret: SECRET,
      required: true,
      fallback_error_message: 'Refused by the check.',
    });
    await untilCalled('P-2', '/hook');
    for (const [what, answer] of HOSTILE_ANSWERS) {
      receiver.answer = () => answer;
      for (let i = 0; i < 2; i++) {
        const res = await add('P-2');
        expect(res.status, `${what}: ${res.body}`).to.equal(400);
        expect(res.type, what).to.include('application/json');
        expect(JSON.parse(res.body), what).to.deep.equal({ message: 'Refused by the check.' });
        await expectServing();
      }
    }
  });

  it('should decide a rule /^(a+)+$/ on a 64-character sku and go on serving', async () => {
    receiver.received.length = 0;
    receiver.answer = () => ({ json: { op: 'success' } });
    await w.subscribe({
      url: receiver.url('/rule'),
      secret: SECRET,
      hook_name: 'redos',
      rules: [{ field: 'recommendation.items.0.sku', operator: 'regex', value: '/^(a+)+$/' }],
    });
    // A sku the rule takes: the hook is called (also waits for the server process to read the subscription).
    await untilCalled('a'.repeat(64), '/rule');
    receiver.received.length = 0;
    // 64 characters a backtracking engine tries in every way before failing at the last one.
    const res = await add(`${'a'.repeat(63)}b`);
    expect(res.type).to.include('application/json');
    expect(calls('/rule'), 'the rule does not hold: the hook is not called').to.have.length(0);
    await expectServing();
    await add('a'.repeat(64));
    expect(calls('/rule'), 'the rule holds: the hook is called').to.have.length(1);
  });
});
