import { expect } from 'chai';
import {
  normaliseNote,
  NormaliseItemNotes,
} from '../../../modules/Acme/RecommendationNotes/Plugin/NormaliseItemNotes.js';
import {
  captureLogger,
  ITEM_CONTRACT,
  startFlow,
  WITH_NOTES,
  type Flow,
  type LogLine,
} from './support/recommendationFlow.js';

interface Item {
  item_id: string;
  sku: string;
  note: string | null;
}

const noteOf = (body: { items: Item[] }, sku: string) => body.items.find((i) => i.sku === sku)?.note;

describe('Acme_RecommendationNotes: the example plugins', () => {
  describe('when the module is enabled', () => {
    let flow: Flow;
    let lines: LogLine[];

    before(async () => {
      const capture = captureLogger();
      lines = capture.lines;
      flow = await startFlow({ modules: WITH_NOTES, logger: capture.logger });
    });
    after(async () => flow?.t.stop());

    const timingLines = () => lines.filter((l) => l.plugin === 'acme_recommendation_notes_timing');

    it('should tidy notes on Add Items and count the noted items in the response (before and after plugins)', async () => {
      const res = await flow.addItems({
        recommendation: {
          items: [
            { sku: 'VIT-D3', qty: 1, note: '  Take with food  \r\n\r\n\r\n  then rest ' },
            { sku: 'OMEGA-3', qty: 2, note: ' \n  ' },
          ],
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(noteOf(res.body, 'VIT-D3')).to.equal('Take with food\n\n  then rest');
      expect(noteOf(res.body, 'OMEGA-3')).to.equal(null);
      expect(res.body.extension_attributes).to.deep.equal({ noted_item_count: 1 });
    });

    it('should keep what was stored: a later read shows the tidied note', async () => {
      const res = await flow.t
        .request()
        .get(`/rest/V1/dispensary/recommendation/${flow.recommendationId}`)
        .set('Authorization', `Bearer ${flow.token}`);
      expect(res.status).to.equal(200);
      expect(noteOf(res.body, 'VIT-D3')).to.equal('Take with food\n\n  then rest');
      // The after plugin wraps the item contract only: other routes answer as they are.
      // The repository's after plugin (LoadPractitionerMemo) adds its attributes; the note summary is the item routes' only.
      expect(res.body.extension_attributes).to.deep.equal({ practitioner_memo: null, item_changes: 2 });
    });

    it('should tidy notes on Update Items and leave absent notes alone', async () => {
      const res = await flow.updateItems({
        recommendation: {
          items: [
            { sku: 'omega-3', qty: 3, note: '\tHalf dose\t' },
            { sku: 'VIT-D3', qty: 4 },
          ],
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(noteOf(res.body, 'OMEGA-3')).to.equal('Half dose');
      expect(noteOf(res.body, 'VIT-D3')).to.equal('Take with food\n\n  then rest');
      expect(res.body.extension_attributes).to.deep.equal({ noted_item_count: 2 });
    });

    it('should count again after Delete Items', async () => {
      const current = await flow.updateItems({ recommendation: { items: [{ sku: 'VIT-D3', qty: 4 }] } });
      const vitamin = (current.body.items as Item[]).find((i) => i.sku === 'VIT-D3')!;
      const res = await flow.deleteItems([vitamin.item_id]);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((res.body.items as Item[]).map((i) => i.sku)).to.deep.equal(['OMEGA-3']);
      expect(res.body.extension_attributes).to.deep.equal({ noted_item_count: 1 });
    });

    it('should log one timing line per REST call through the around plugin, failures included', async () => {
      const before = timingLines().length;
      await flow.addItems({ recommendation: { items: [{ sku: 'VIT-D3', qty: 1 }] } });
      const missing = await flow.addItems({ recommendation: { items: [{ sku: 'NO-SUCH-SKU', qty: 1 }] } });
      expect(missing.status).to.equal(400);
      const logged = timingLines().slice(before);
      expect(logged.map((l) => [l.operation, l.recommendationId, l.outcome])).to.deep.equal([
        ['addItems', flow.recommendationId, 'done'],
        ['addItems', flow.recommendationId, 'failed'],
      ]);
      expect(logged[0]).to.include({ requested: 1, itemCount: 2 });
      expect(logged[0]!.ms).to.be.a('number').and.at.least(0);
      expect(logged[0]!.msg).to.match(/^recommendation addItems done in \d+\.\d ms$/);
    });

    it('should apply the timing plugin in the REST area only (etc/webapi_rest/di.xml)', async () => {
      const rest = await flow.t.cli('dev:plugin:list', ITEM_CONTRACT, 'addItems');
      const global = await flow.t.cli('dev:plugin:list', ITEM_CONTRACT, 'addItems', '--area', 'global');
      expect(rest.code).to.equal(0);
      expect(global.code).to.equal(0);
      const chain = (out: string[]) => out.filter((l) => l.includes('acme_')).map((l) => l.trim().split(' ')[0]);
      expect(chain(rest.out)).to.deep.equal([
        'acme_recommendation_notes_timing::aroundAddItems',
        'acme_recommendation_notes_normalise::beforeAddItems',
        'acme_recommendation_notes_summary::afterAddItems',
      ]);
      expect(chain(global.out)).to.deep.equal([
        'acme_recommendation_notes_normalise::beforeAddItems',
        'acme_recommendation_notes_summary::afterAddItems',
      ]);
    });
  });

  describe('when the module is off (as etc/config.json ships it)', () => {
    let flow: Flow;
    before(async () => {
      flow = await startFlow({ modules: { Acme_RecommendationNotes: false } });
    });
    after(async () => flow?.t.stop());

    it('should leave notes and the response as the service makes them', async () => {
      const res = await flow.addItems({ recommendation: { items: [{ sku: 'VIT-D3', qty: 1, note: '  as sent  ' }] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(noteOf(res.body, 'VIT-D3')).to.equal('  as sent  ');
      expect(res.body).to.not.have.property('extension_attributes');
      const list = await flow.t.cli('dev:plugin:list', ITEM_CONTRACT);
      expect(list.out.join('\n')).to.not.include('acme_');
    });
  });

  describe('when notes are normalised', () => {
    it('should return null (keep the arguments) when no note changes', () => {
      const plugin = new NormaliseItemNotes();
      const body = {
        items: [
          { sku: 'A', qty: 1, note: 'fine' },
          { sku: 'B', qty: 1 },
          { sku: 'C', qty: 1, note: null },
        ],
      };
      expect(plugin.beforeAddItems({} as never, 'id', body)).to.equal(null);
    });

    it('should return new arguments and never change the request in place', () => {
      const plugin = new NormaliseItemNotes();
      const body = { items: [{ sku: 'A', qty: 1, note: ' x ' }] };
      const replaced = plugin.beforeUpdateItems({} as never, 'id', body);
      expect(replaced).to.deep.equal(['id', { items: [{ sku: 'A', qty: 1, note: 'x' }] }]);
      expect(body.items[0]!.note).to.equal(' x ');
    });

    for (const [input, expected] of [
      ['plain', 'plain'],
      ['  both ends  ', 'both ends'],
      ['a\r\nb\rc', 'a\nb\nc'],
      ['line  \nnext', 'line\nnext'],
      ['a\n\n\n\n\nb', 'a\n\nb'],
      ['   ', null],
      ['\r\n\t', null],
    ] as const) {
      it(`should turn ${JSON.stringify(input)} into ${JSON.stringify(expected)}`, () => {
        expect(normaliseNote(input)).to.equal(expected);
      });
    }
  });
});
