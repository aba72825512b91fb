/** Hooks declared in a module's etc/webhooks.xml and a subscription in its etc/io_events.xml (Adobe's schemas), with an `env:` secret. */
import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { WebhookReceiver } from '../../support/webhookReceiver.js';
import { ok, skus, type Recommendation } from '../Recommendation/support.js';
import { ADD_ITEMS, WebhookWorld } from './support.js';

const SECRET = `whsec_${Buffer.from('the fixture module secret, 32 b!').toString('base64')}`;
const FIXTURES = path.join('test', 'modules', 'Webhooks', 'fixtures');

describe('Webhooks and events: etc/webhooks.xml and etc/io_events.xml', () => {
  let w: WebhookWorld;
  let receiver: WebhookReceiver;
  let r: Recommendation;

  before(async () => {
    process.env.FIXTURE_XML_WEBHOOK_SECRET = SECRET;
    w = await WebhookWorld.start({
      moduleSources: [
        { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
        { modulesDir: path.join(PROJECT_ROOT, FIXTURES), codeDir: path.join(DIST_ROOT, FIXTURES) },
      ],
    });
    await w.d.products('X-1', 'X-2');
    receiver = await WebhookReceiver.start(47919);
    receiver.secret = SECRET;
  });
  after(async () => {
    delete process.env.FIXTURE_XML_WEBHOOK_SECRET;
    await receiver?.stop();
    await w?.stop();
  });
  beforeEach(async () => {
    r = await w.d.recommendation({ recommendation: { items: [{ sku: 'X-1', qty: 1 }] } });
    receiver.received.length = 0;
  });

  it('should call the declared hook with its fields and headers, signed with the env secret', async () => {
    receiver.answer = () => ({ json: { op: 'success' } });
    ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'X-2', qty: 4 }] } }));
    expect(receiver.received.map((call) => call.path)).to.deep.equal(['/max-qty']);
    expect(receiver.received[0]!.body).to.deep.equal({ items: [{ sku: 'X-2', qty: 4 }] });
    expect(receiver.received[0]!.headers['x-fixture']).to.equal('xml');
    expect(receiver.received[0]!.verified).to.equal(true);
  });

  it('should veto with the receiver message, and answer the fallback message when it fails', async () => {
    receiver.answer = () => ({ json: { op: 'exception', message: 'At most 3 of X-2.' } });
    const vetoed = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'X-2', qty: 4 }] } });
    expect(vetoed.body).to.deep.equal({ message: 'At most 3 of X-2.' });
    receiver.answer = () => ({ status: 503, raw: '' });
    const failed = await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'X-2', qty: 4 }] } });
    expect(failed.status).to.equal(400);
    expect(failed.body).to.deep.equal({ message: 'The quantity check is unavailable.' });
    expect(skus(await w.d.read(r.recommendation_id))).to.deep.equal(['X-1']);
  });

  it('webhooks:list should show the declared hook and its file, not the one removed', async () => {
    const list = await w.d.t.cli('webhooks:list');
    const text = list.out.join('\n');
    expect(text).to.include(`${ADD_ITEMS} before max_qty -> http://127.0.0.1:47919/max-qty`);
    expect(text).to.include('webhooks.xml');
    expect(text).not.to.include('removed_by_next_declaration');
  });

  it('io_events.xml should subscribe the event: recorded with the change, delivered signed with the subscribed fields', async () => {
    receiver.answer = () => ({ json: { op: 'success' } });
    await w.d.t.app.knex('event_outbox').delete(); // the earlier tests' events
    ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'X-2', qty: 1 }] } }));
    // The rule: nothing added, nothing recorded.
    ok(await w.d.add(r.recommendation_id, { recommendation: { items: [{ sku: 'X-2', qty: 1 }] } }));
    const rows = (await w.d.t.app.knex('event_outbox').select('subscription_name')) as { subscription_name: string }[];
    expect(rows).to.deep.equal([{ subscription_name: 'observer.dispensary_recommendation_items_add_after' }]);
    const listed = await w.d.t.cli('events:list');
    expect(listed.out.join('\n')).to.include(
      'observer.dispensary_recommendation_items_add_after -> http://127.0.0.1:47919/events [recommendation.recommendation_id, 1 rule(s)] from',
    );
    receiver.received.length = 0;
    const consumer = await w.d.t.cli('queue:consumers:start', 'event.delivery', '--max-messages', '1');
    expect(consumer.code, consumer.err.join('\n')).to.equal(0);
    const events = receiver.received.filter((call) => call.path === '/events');
    expect(events).to.have.length(1);
    expect(events[0]!.verified).to.equal(true);
    expect((events[0]!.body as { data: unknown }).data).to.deep.equal({
      recommendation: { recommendation_id: r.recommendation_id },
    });
  });
});
