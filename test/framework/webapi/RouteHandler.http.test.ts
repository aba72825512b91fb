/**
 * One handler per route for the three ways a route is called (issue 28): a step added once
 * (Fixture_Pipeline's RecordingStep, one item of `Framework\Webapi\RouteStepList` in its etc/di.xml)
 * runs on the synchronous route (accept, before, after), on the async web API as it accepts an
 * operation (accept, on the single and the bulk form) and in the operation consumer as it replays
 * one (before, after); the step's check refuses a call on the synchronous route and on both async
 * forms, where nothing is queued.
 */
import { expect } from 'chai';
import { RecordingStep, REFUSED_SKU } from '../../fixtures/pipeline/modules/Fixture/Pipeline/Model/RecordingStep.js';
import { Dispensary } from '../../modules/Recommendation/support.js';
import { QUEUE_MODES } from '../../modules/AsynchronousOperations/support.js';
import { PROJECT_MODULE_SOURCES } from '../../support/modules.js';
import { fixtureCodeDir, fixtureSourceDir } from '../support/moduleTree.js';

const PIPELINE = { modulesDir: fixtureSourceDir('pipeline'), codeDir: fixtureCodeDir('pipeline') };
const ADD_ITEMS = 'POST /V1/dispensary/recommendation/:recommendationId/item';

describe('RouteHandler: one step, added once, on the synchronous route, the async web API and the consumer', function () {
  this.timeout(60_000);
  let d: Dispensary;
  let id: string;
  before(async () => {
    d = await Dispensary.start({ ...QUEUE_MODES[0]!.options(), moduleSources: [PROJECT_MODULE_SOURCES, PIPELINE] });
    await d.products('P-1', 'P-2', 'P-3');
    ({ recommendation_id: id } = await d.recommendation({ recommendation: { items: [] } }));
  });
  after(async () => d?.stop());

  /** What the step saw of Add Items since the last call. */
  const seen = (): string[] => {
    const mine = RecordingStep.seen.filter((line) => line.endsWith(ADD_ITEMS)).map((line) => line.split(' ')[0]!);
    RecordingStep.seen.length = 0;
    return mine;
  };
  const post = (path: string, body: unknown) =>
    d
      .request()
      .post(`/rest/default${path}`)
      .set('Authorization', `Bearer ${d.token}`)
      .send(body as object);
  const items = (sku: string) => ({ recommendation: { items: [{ sku, qty: 1 }] } });
  const queued = async (): Promise<number> =>
    Number(((await d.t.app.knex('queue_message').count({ n: '*' })) as { n: number | string }[])[0]!.n);

  it('should run on the synchronous route: accept, before, after; and its check refuses with 400', async () => {
    seen();
    const res = await post(`/V1/dispensary/recommendation/${id}/item`, items('P-1'));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(seen()).to.deep.equal(['accept', 'before', 'after']);
    const refused = await post(`/V1/dispensary/recommendation/${id}/item`, items(REFUSED_SKU));
    expect(refused.status).to.equal(400);
    expect(refused.body.message).to.equal('The sku "%sku" is refused by a route step.');
    expect(seen()).to.deep.equal(['accept']);
  });

  it('should run as the async web API accepts an operation, and its check refuses the request with nothing queued', async () => {
    const before = await queued();
    const single = await post(`/async/V1/dispensary/recommendation/${id}/item`, items(REFUSED_SKU));
    expect(single.status).to.equal(400);
    expect(single.body.message).to.equal('The sku "%sku" is refused by a route step.');
    const bulk = await post('/async/bulk/V1/dispensary/recommendation/byRecommendationId/item', [
      { recommendationId: id, ...items('P-2') },
      { recommendationId: id, ...items(REFUSED_SKU) },
    ]);
    expect(bulk.status).to.equal(400);
    expect(bulk.body).to.deep.equal({
      message: 'Error processing %key element of input data: %error',
      parameters: { key: 1, error: `The sku "${REFUSED_SKU}" is refused by a route step.` },
    });
    expect(await queued()).to.equal(before);
    expect(seen()).to.deep.equal(['accept', 'accept', 'accept']);

    const accepted = await post(`/async/V1/dispensary/recommendation/${id}/item`, items('P-3'));
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    expect(seen()).to.deep.equal(['accept']);
    expect(await queued()).to.equal(before + 1);
  });

  it('should run in the consumer as it replays the operation: before, after (accepted already)', async () => {
    const consumed = await d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', '1');
    expect(consumed.code, consumed.err.join('\n')).to.equal(0);
    expect(seen()).to.deep.equal(['before', 'after']);
    const read = await d.read(id);
    expect(read.items.map((item) => item.sku)).to.deep.equal(['P-1', 'P-3']);
  });
});
